// Faults, as a user of the school sees them: the backend killed (SIGKILL) in the middle of writes loses
// no row it answered 2xx for and opens again (PGlite data dir and PostgreSQL alike); a throwing or
// exiting function answers 5xx without details and the server keeps serving; an upload cut mid-way
// leaves neither an object row nor a file, and an interrupted overwrite keeps the old bytes.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cleanups, findPgBin, freePort, sleep, startPostgres } from '../../../scripts/bench/processes.ts';
import { ANON_KEY, FIXTURE_FUNCTIONS_DIR, SEED_PASSWORD, SERVICE_ROLE_KEY, useBackend } from '../harness.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const service = { apikey: SERVICE_ROLE_KEY, Authorization: `Bearer ${SERVICE_ROLE_KEY}` };

afterAll(cleanup);

// ── the real server (local-supabase/main.ts, as `npm run backend` runs it) in a child process ──────
interface Child {
  url: string;
  proc: ChildProcess;
  exited: Promise<void>;
}

async function spawnBackend(env: { dataDir: string; databaseUrl?: string }): Promise<Child> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOCAL_SUPABASE_PORT: String(port), LOCAL_SUPABASE_DATA_DIR: env.dataDir };
  delete childEnv.DATABASE_URL;
  if (env.databaseUrl) childEnv.DATABASE_URL = env.databaseUrl;
  // node + the tsx loader directly (no wrapper process): the SIGKILL hits the server itself.
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'local-supabase', 'main.ts')], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  cleanups.push(() => proc.exitCode === null && proc.signalCode === null && proc.kill('SIGKILL'));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (proc.exitCode !== null) throw new Error(`the backend exited before it was ready: ${stderr}`);
    if (await fetch(`${url}/health`).then((r) => r.ok, () => false)) break;
    if (i > 1200) throw new Error(`the backend did not come up: ${stderr}`);
    await sleep(100);
  }
  return { url, proc, exited };
}

/**
 * Writes schools through REST with 4 requests in flight, SIGKILLs the server once `killAfter` writes
 * were acknowledged (others are then half-way), and returns the ids of the acknowledged rows.
 */
async function writeThenKill(child: Child, run: string, killAfter: number): Promise<string[]> {
  const acked: string[] = [];
  let next = 0;
  let killed = false;
  async function worker() {
    while (!killed) {
      const i = next++;
      const res = await fetch(`${child.url}/rest/v1/schools?select=id`, {
        method: 'POST',
        headers: { ...service, 'Content-Type': 'application/json', Prefer: 'return=representation' },
        body: JSON.stringify({ slug: `${run}-${i}`, name: `Escola ${run} ${i}`, description: 'x'.repeat(2000) }),
      }).catch(() => null);
      if (!res) return; // the connection died with the server
      if (res.status !== 201) throw new Error(`write ${i}: ${res.status} ${await res.text()}`);
      const [row] = (await res.json()) as { id: string }[];
      acked.push(row!.id);
      if (acked.length >= killAfter && !killed) {
        killed = true;
        child.proc.kill('SIGKILL');
      }
    }
  }
  await Promise.all([worker(), worker(), worker(), worker()]);
  await child.exited;
  expect(child.proc.signalCode).toBe('SIGKILL');
  return acked;
}

/** After the restart: every acknowledged row is there, whole; the database reads, writes and signs in. */
async function expectIntact(child: Child, run: string, acked: string[]) {
  const res = await fetch(`${child.url}/rest/v1/schools?select=id,slug,name,description&slug=like.${run}-*`, { headers: service });
  expect(res.status).toBe(200);
  const rows = (await res.json()) as { id: string; slug: string; name: string; description: string }[];
  const ids = new Set(rows.map((r) => r.id));
  expect(acked.filter((id) => !ids.has(id))).toEqual([]);
  // No torn rows: each one is what a single request wrote.
  for (const r of rows) {
    expect(r.name).toBe(`Escola ${run} ${r.slug.slice(run.length + 1)}`);
    expect(r.description).toBe('x'.repeat(2000));
  }
  const write = await fetch(`${child.url}/rest/v1/schools`, {
    method: 'POST',
    headers: { ...service, 'Content-Type': 'application/json' },
    body: JSON.stringify({ slug: `${run}-depois`, name: 'Depois do reinício' }),
  });
  expect(write.status).toBe(201);
  const signIn = await fetch(`${child.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: ANON_KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'aluno@escola-demo.com.br', password: SEED_PASSWORD }),
  });
  expect(signIn.status).toBe(200);
  const { access_token } = (await signIn.json()) as { access_token: string };
  const courses = await fetch(`${child.url}/rest/v1/courses?select=id`, { headers: { apikey: ANON_KEY, Authorization: `Bearer ${access_token}` } });
  expect(courses.status).toBe(200);
  expect(((await courses.json()) as unknown[]).length).toBeGreaterThan(0);
}

describe('SIGKILL in the middle of writes', () => {
  it('PGlite data directory: no acknowledged row lost, the database opens and answers', { timeout: 240_000 }, async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'faults-pglite-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const run = `falha-${randomBytes(3).toString('hex')}`;
    const acked = await writeThenKill(await spawnBackend({ dataDir }), run, 40);
    expect(acked.length).toBeGreaterThanOrEqual(40);
    const again = await spawnBackend({ dataDir });
    await expectIntact(again, run, acked);
    // And a second kill, this time right after the restart's own writes, opens again too.
    const more = await writeThenKill(again, `${run}-b`, 10);
    await expectIntact(await spawnBackend({ dataDir }), `${run}-b`, more);
  });

  it('PostgreSQL: no acknowledged row lost, the database answers', { timeout: 240_000 }, async () => {
    const pgBin = findPgBin();
    expect(pgBin, 'PostgreSQL (>= 15) binaries under /usr/lib/postgresql').not.toBeNull();
    const pgServer = await startPostgres(pgBin!);
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'faults-pg-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const run = `falha-${randomBytes(3).toString('hex')}`;
    const acked = await writeThenKill(await spawnBackend({ dataDir, databaseUrl: pgServer.url }), run, 40);
    expect(acked.length).toBeGreaterThanOrEqual(40);
    await expectIntact(await spawnBackend({ dataDir, databaseUrl: pgServer.url }), run, acked);
  });
});

// ── functions and uploads, on the in-process test backend ─────────────────────────────────────────
describe('a crashing function and a cut upload', () => {
  const backend = useBackend({ functionsDir: FIXTURE_FUNCTIONS_DIR });

  const callFn = (name: string) =>
    fetch(`${backend.url}/functions/v1/${name}`, { method: 'POST', headers: { Authorization: `Bearer ${ANON_KEY}` }, body: '{}' });

  it('a function that throws answers 5xx without its error, and the server keeps serving', { timeout: 120_000 }, async () => {
    for (const name of ['throws', 'throws/async', 'crash/exit']) {
      const res = await callFn(name);
      expect(res.status, name).toBeGreaterThanOrEqual(500);
      const text = await res.text();
      // The caller learns nothing of the function's internals.
      expect(text, name).not.toMatch(/segredo-interno|select \* from|\bat .*\.ts:\d+|file:\/\//);

      expect((await callFn('echo')).status, `echo after ${name}`).toBe(200);
      const rest = await fetch(`${backend.url}/rest/v1/courses?select=id&limit=1`, { headers: service });
      expect(rest.status, `REST after ${name}`).toBe(200);
    }
    // The throwing function itself still answers its next, healthy call.
    expect((await callFn('throws/ok')).status).toBe(200);
  });

  /** Every file under the storage folder (objects and upload temp files). */
  const filesOnDisk = () =>
    readdirSync(backend.server.ctx.storageDir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => path.join(d.parentPath, d.name))
      .sort();

  /** Sends the headers and `sent` of `total` bytes of an upload, then drops the connection. */
  async function cutUpload(method: 'POST' | 'PUT', objectPath: string, total: number, sent: number) {
    const port = backend.server.port;
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    socket.write(
      `${method} /storage/v1/object/${objectPath} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        `Authorization: Bearer ${SERVICE_ROLE_KEY}\r\napikey: ${SERVICE_ROLE_KEY}\r\n` +
        `Content-Type: application/pdf\r\nContent-Length: ${total}\r\n${method === 'PUT' ? 'x-upsert: true\r\n' : ''}\r\n`,
    );
    for (let done = 0; done < sent; done += 64 * 1024) {
      socket.write(Buffer.alloc(Math.min(64 * 1024, sent - done), 7));
      await sleep(10);
    }
    await sleep(300); // the server is now writing the temp file
    socket.destroy();
    await sleep(500);
  }

  const objectRows = async (name: string) =>
    (await backend.server.ctx.engine.query<{ n: number }>(`select count(*)::int as n from storage.objects where bucket_id = 'lesson-materials' and name = $1`, [name])).rows[0]!.n;

  it('an upload cut mid-way leaves no object row and no file', async () => {
    const name = `falhas/cortado-${randomBytes(3).toString('hex')}.pdf`;
    const before = filesOnDisk();
    await cutUpload('POST', `lesson-materials/${name}`, 2 * 1024 * 1024, 600 * 1024);
    expect(await objectRows(name)).toBe(0);
    expect(filesOnDisk()).toEqual(before);
    const get = await fetch(`${backend.url}/storage/v1/object/lesson-materials/${name}`, { headers: service });
    expect(get.status).toBe(404);
    expect(await get.json()).toMatchObject({ error: 'not_found' });
    // The same name uploads fine afterwards.
    const ok = await fetch(`${backend.url}/storage/v1/object/lesson-materials/${name}`, {
      method: 'POST',
      headers: { ...service, 'Content-Type': 'application/pdf' },
      body: Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(1000, 1)]),
    });
    expect(ok.status).toBe(200);
  });

  it('an overwrite cut mid-way keeps the old object, whole', async () => {
    const name = `falhas/existente-${randomBytes(3).toString('hex')}.pdf`;
    const original = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(50_000)]); // a PDF's first bytes, then noise
    const put = await fetch(`${backend.url}/storage/v1/object/lesson-materials/${name}`, {
      method: 'POST',
      headers: { ...service, 'Content-Type': 'application/pdf' },
      body: original,
    });
    expect(put.status).toBe(200);
    const before = filesOnDisk();
    await cutUpload('PUT', `lesson-materials/${name}`, 2 * 1024 * 1024, 600 * 1024);
    expect(await objectRows(name)).toBe(1);
    expect(filesOnDisk()).toEqual(before);
    const get = await fetch(`${backend.url}/storage/v1/object/lesson-materials/${name}`, { headers: service });
    expect(get.status).toBe(200);
    expect(Buffer.from(await get.arrayBuffer()).equals(original)).toBe(true);
  });
});

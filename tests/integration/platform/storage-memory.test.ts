// Bodies are streamed to and from disk: a 200 MB upload (and its download) must not raise the
// server's memory by more than a few MB. The server runs in this process, so this process's RSS is
// the server's; the uploading client runs in a child process (see uploadFromChild).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { ANON_KEY, useBackend, type JwtUser } from '../harness.ts';
import { STORAGE_FIXTURE_SQL } from '../storage-helpers.ts';

const MB = 1024 * 1024;
// 200 MB by default; STORAGE_MEMORY_TEST_MB=500 checks the 500 MB case.
const TOTAL = Number(process.env.STORAGE_MEMORY_TEST_MB || 200) * MB;
const CHUNK = 256 * 1024;

const backend = useBackend({ sql: STORAGE_FIXTURE_SQL });
let alice: JwtUser;

beforeAll(async () => {
  alice = await backend.jwtUser();
});

/**
 * Uploads TOTAL bytes with supabase-js from a child process: undici's fetch in the uploading process
 * itself keeps far more than the body's chunk size alive, which would hide the server's own figure.
 * The body is generated as a stream there (raw, as Node sends it), or as a Blob sent as multipart
 * form data (as a browser sends it); its MD5 is printed for the check.
 */
function uploadFromChild(url: string, jwt: string, name: string, mode: 'raw' | 'multipart'): Promise<string> {
  const script = `
    globalThis.WebSocket ??= class { constructor() { throw new Error('no WebSocket'); } };
    const { createClient } = await import('@supabase/supabase-js');
    const { Readable } = await import('node:stream');
    const { createHash } = await import('node:crypto');
    const [url, anonKey, jwt, name, total, chunkSize, mode] = process.argv.slice(1);
    const chunk = Buffer.alloc(Number(chunkSize));
    for (let i = 0; i < chunk.length; i++) chunk[i] = i % 251;
    const md5 = createHash('md5');
    let sent = 0;
    const body = new Readable({
      read() {
        if (sent >= Number(total)) return void this.push(null);
        sent += chunk.length;
        md5.update(chunk);
        this.push(Buffer.from(chunk));
      },
    });
    const client = createClient(url, anonKey, { global: { headers: { Authorization: 'Bearer ' + jwt } }, auth: { persistSession: false } });
    let file = body;
    if (mode === 'multipart') {
      const parts = [];
      for await (const part of body) parts.push(part);
      file = new Blob(parts, { type: 'video/mp4' });
    }
    const { error } = await client.storage.from('fx-private').upload(name, file, { contentType: 'video/mp4', duplex: 'half' });
    if (error) { console.error(JSON.stringify(error)); process.exit(1); }
    console.log(md5.digest('hex'));
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, url, ANON_KEY, jwt, name, String(TOTAL), String(CHUNK), mode], {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`upload client exited with ${code}`))));
  });
}

/** Samples RSS while fn runs; returns the growth of the peak over the starting value. */
async function peakGrowth(fn: () => Promise<void>): Promise<{ baseline: number; peak: number }> {
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  try {
    await fn();
  } finally {
    clearInterval(timer);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  return { baseline, peak };
}

it('uploads and downloads 200 MB with a flat memory profile', { timeout: 180_000 }, async () => {
  const bucket = alice.client.storage.from('fx-private');
  const name = `${alice.id}/big/lecture.mp4`;
  // Warm up code paths (and allocator pools) with a small upload first.
  await bucket.upload(`${alice.id}/big/warmup.mp4`, Buffer.alloc(4 * MB, 1), { contentType: 'video/mp4' });

  let md5 = '';
  const up = await peakGrowth(async () => {
    md5 = await uploadFromChild(backend.url, alice.jwt, name, 'raw');
  });
  const { data: info } = await bucket.info(name);
  expect(info).toMatchObject({ size: TOTAL, etag: `"${md5}"` });

  const form = await peakGrowth(async () => {
    md5 = await uploadFromChild(backend.url, alice.jwt, `${name}.multipart`, 'multipart');
  });
  const { data: formInfo } = await bucket.info(`${name}.multipart`);
  expect(formInfo).toMatchObject({ size: TOTAL, etag: `"${md5}"`, contentType: 'video/mp4' });

  let received = 0;
  const down = await peakGrowth(async () => {
    const res = await fetch(`${backend.url}/storage/v1/object/authenticated/fx-private/${name}`, {
      headers: { Authorization: `Bearer ${alice.jwt}` },
    });
    expect(res.status).toBe(200);
    for await (const chunk of res.body!) received += (chunk as Uint8Array).length;
  });
  expect(received).toBe(TOTAL);

  const mb = (n: number) => (n / MB).toFixed(1);
  console.log(
    `[storage memory] ${TOTAL / MB} MB upload: RSS ${mb(up.baseline)} MB -> peak ${mb(up.peak)} MB (+${mb(up.peak - up.baseline)} MB); ` +
      `as multipart: RSS ${mb(form.baseline)} MB -> peak ${mb(form.peak)} MB (+${mb(form.peak - form.baseline)} MB); ` +
      `download: RSS ${mb(down.baseline)} MB -> peak ${mb(down.peak)} MB (+${mb(down.peak - down.baseline)} MB)`,
  );
  expect(up.peak - up.baseline).toBeLessThan(50 * MB);
  expect(form.peak - form.baseline).toBeLessThan(50 * MB);
  expect(down.peak - down.baseline).toBeLessThan(50 * MB);
});

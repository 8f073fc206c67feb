// Processes the benchmarks start and always clean up: a local-supabase in its own process
// (scripts/bench/load-server.ts), a throwaway PostgreSQL cluster (the logic of scripts/test.mjs), free
// ports, CPU time from /proc. Shared by bench:load and bench:rest.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { freePort } from '../free-port.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SERVER_ENTRY = path.join(ROOT, 'scripts', 'bench', 'load-server.ts');

// ── cleanup: everything started registers its undo here; run once, in reverse order ──────────────
export const cleanups: (() => unknown)[] = [];
export async function cleanup() {
  while (cleanups.length) {
    try {
      await cleanups.pop()!();
    } catch (e) {
      console.error('cleanup:', (e as Error).message);
    }
  }
}
let interrupted = false;
/** True once SIGINT/SIGTERM started the cleanup (errors after that are expected). */
export const isInterrupted = () => interrupted;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    interrupted = true;
    console.log(`\n${signal}: stopping and cleaning up…`);
    void cleanup().finally(() => process.exit(130));
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export { freePort };

// ── the backend, in its own process ──────────────────────────────────────────────────────────────
export interface Backend {
  url: string;
  anonKey: string;
  engine: string;
  counts: Record<string, number>;
  seedSeconds: number;
  child: ChildProcess;
}

/**
 * Spawns load-server.ts (node + the tsx loader directly rather than the tsx CLI, which would add a
 * wrapper process between us and the server) and waits for its `ready` line and GET /health = 200.
 */
export async function startBackend(databaseUrl: string | null, extraEnv: Record<string, string> = {}): Promise<Backend> {
  const port = await freePort();
  // The simulated students all sign in from 127.0.0.1: no per-IP auth limits (0 = none).
  const noAuthLimits = { AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '0', AUTH_RATE_LIMIT_TOKEN_REFRESH: '0', AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS: '0' };
  const env: NodeJS.ProcessEnv = { ...process.env, ...noAuthLimits, ...extraEnv, LOCAL_SUPABASE_PORT: String(port) };
  delete env.DATABASE_URL; // PGlite unless we pass our own database
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  // stdin is a pipe the child watches: if we die without killing it, it stops by itself.
  // BENCH_SERVER_NODE_ARGS: node flags for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to
  // profile it under load (node refuses --cpu-prof in NODE_OPTIONS).
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', SERVER_ENTRY], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killed = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
    if (!killed) child.kill('SIGKILL');
  });
  createInterface({ input: child.stderr! }).on('line', (line) => console.log(`  [server] ${line}`));

  const ready = await new Promise<Omit<Backend, 'child'>>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('ready ')) resolve(JSON.parse(line.slice('ready '.length)));
      else console.log(`  [server] ${line}`);
    });
    child.once('exit', (code, signal) => reject(new Error(`the backend exited before it was ready (${signal ?? `code ${code}`})`)));
  });
  for (let i = 0; ; i++) {
    const ok = await fetch(`${ready.url}/health`).then((r) => r.status === 200, () => false);
    if (ok) break;
    if (i >= 100) throw new Error(`${ready.url}/health did not answer 200`);
    await sleep(100);
  }
  return { ...ready, child };
}

// ── a throwaway PostgreSQL cluster (the logic of scripts/test.mjs) ───────────────────────────────
export function findPgBin(): string | null {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => Number(v) >= 15)
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const dir = path.join(base, v, 'bin');
    if (existsSync(path.join(dir, 'initdb'))) return dir;
  }
  return null;
}

/**
 * Cluster on a free loopback port in a temp dir, fsync off, run as the postgres OS user when we are root.
 * `options`: more server options (default BENCH_PG_OPTIONS), e.g. "-c shared_preload_libraries=pg_stat_statements".
 */
export async function startPostgres(pgBin: string, options = process.env.BENCH_PG_OPTIONS ?? ''): Promise<{ url: string; cpuSeconds: () => number }> {
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pg-bench-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  if (asRoot) {
    const uid = Number(spawnSync('id', ['-u', 'postgres']).stdout.toString().trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres']).stdout.toString().trim());
    chownSync(dir, uid, gid);
  }
  const as = (cmd: string, args: string[]) => (asRoot ? spawnSync('runuser', ['-u', 'postgres', '--', cmd, ...args]) : spawnSync(cmd, args));
  const port = await freePort();
  const data = path.join(dir, 'data');
  let r = as(path.join(pgBin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  if (r.status !== 0) throw new Error(`initdb failed: ${r.stderr?.toString()}`);
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off ${options}`;
  r = as(path.join(pgBin, 'pg_ctl'), ['-D', data, '-l', path.join(dir, 'log'), '-w', '-o', serverOptions, 'start']);
  if (r.status !== 0) throw new Error(`pg_ctl start failed: ${r.stderr?.toString()} ${readFileSync(path.join(dir, 'log'), 'utf8')}`);
  cleanups.push(() => as(path.join(pgBin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']));

  // `--fresh` with DATABASE_URL does not reset a schema (it only applies missing migrations), so
  // each run gets a database of its own, even in this new cluster.
  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  try {
    await admin.query('create database bench');
  } finally {
    await admin.end();
  }
  // The postmaster's pid (first line of postmaster.pid): its backends do the server's SQL work.
  const postmaster = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return { url: `postgres://postgres@127.0.0.1:${port}/bench`, cpuSeconds: () => treeCpuSeconds(postmaster) };
}

/** CPU seconds (user + system) a process has used so far, and its parent's pid, from /proc (Linux). */
export function procStat(pid: number | string): { cpu: number; ppid: number } | null {
  try {
    // Fields after the ")" of the command name: ppid is field 4, utime 14, stime 15.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return { cpu: (Number(fields[11]) + Number(fields[12])) / 100, ppid: Number(fields[1]) }; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

/** CPU seconds of a process and its direct children (a postmaster and its backends); 0 elsewhere. */
export function treeCpuSeconds(root: number): number {
  let sum = procStat(root)?.cpu ?? 0;
  try {
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      const st = procStat(pid);
      if (st?.ppid === root) sum += st.cpu;
    }
  } catch {
    // not Linux: no figure
  }
  return sum;
}


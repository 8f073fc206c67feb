// Every `npm run bench:*` runs to its end (issue 38: bench:load had stopped at its first import and no
// test saw it). Each benchmark runs here as package.json runs it, at the smallest sizes its settings
// allow, and must exit 0 and print its table. The figures are not checked: a benchmark on a shared
// machine measures the machine; the page budgets (tests/budgets) check the work deterministically.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SCRIPTS = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

// The large school of scripts/bench/large-school.ts with 40 students instead of 5,000.
const SMALL_SCHOOL = { BENCH_STUDENTS: '40' };

/** Each benchmark with its smallest settings, and a line of the output it must print. */
const SMOKE: [name: string, env: Record<string, string>, prints: RegExp][] = [
  ['bench:rest', { BENCH_DB: 'pglite', BENCH_SECONDS: '1' }, /embedded/i],
  ['bench:pages', { ...SMALL_SCHOOL, BENCH_RUNS: '1' }, /^lesson/m],
  ['bench:admin', { ...SMALL_SCHOOL, BENCH_RUNS: '1' }, /ms/],
  ['bench:load', { ...SMALL_SCHOOL, BENCH_DB: 'both', BENCH_USERS: '2', BENCH_SECONDS: '2', BENCH_RAMP_S: '0', BENCH_THINK_MS: '100' }, /database CPU per request: [\d.]+ ms \(PostgreSQL/],
  ['bench:emails', { BENCH_EMAILS: '5' }, /messages\/s/],
  ['bench:ranking', { ...SMALL_SCHOOL, BENCH_RANKING_RUNS: '1' }, /ms/],
  ['bench:bundle', {}, /login/i],
  ['bench:images', { BENCH_SAMPLES: '1' }, /home/i],
  ['bench:lighthouse', { BENCH_RUNS: '1', BENCH_PAGES: 'login' }, /login/i],
  // 3 viewers for 3 s with a heartbeat a second; one cold, throttled press of play, which starts on the
  // demo video's lowest rendition.
  ['bench:video', { BENCH_VIEWERS: '3', BENCH_SECONDS: '3', BENCH_HEARTBEAT_S: '1', BENCH_RUNS: '1' }, /started on 240p\)[\s\S]*^play → first frame.*│/m],
];

it('covers every benchmark of package.json', () => {
  expect(SMOKE.map(([name]) => name).sort()).toEqual(Object.keys(SCRIPTS).filter((s) => s.startsWith('bench:')).sort());
});

/** `npm run <name>` with env; its exit code and output. */
function run(name: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
    delete childEnv.DATABASE_URL; // each benchmark picks its engines
    // As from a shell: Vitest's NODE_ENV=test would make the SPA's build React's development one.
    for (const key of Object.keys(childEnv)) if (key === 'NODE_ENV' || key === 'TEST' || key.startsWith('VITEST')) delete childEnv[key];
    const child = spawn('npm', ['run', '--silent', name], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

it.each(SMOKE)('%s runs to its end', async (name, env, prints) => {
  const { code, output } = await run(name, env);
  expect(code, output.slice(-3000)).toBe(0);
  expect(output).toMatch(prints);
});

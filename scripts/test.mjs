// `npm test`: every check, in order — typecheck, lint, unit/component tests, integration tests
// (supabase-js against local-supabase on PGlite, then on a real PostgreSQL when one can be had),
// end-to-end journeys in Debian's Chromium against the built SPA, and a smoke run of every benchmark. Ends with one line
// "N passed, N failed" and exits non-zero when anything failed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, mkdtempSync, rmSync, chownSync } from 'node:fs';
import { freePort } from './free-port.mjs';
import os from 'node:os';
import path from 'node:path';
import { ensureDeps, ROOT } from './ensure-deps.mjs';

ensureDeps();

const bin = (name) => path.join(ROOT, 'node_modules', '.bin', name);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'npm-test-'));
const totals = { passed: 0, failed: 0 };
const started = Date.now();
let failedStep = null;

function step(title) {
  console.log(`\n━━ ${title} ${'━'.repeat(Math.max(0, 70 - title.length))}`);
}

function run(cmd, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('exit', (code, signal) => resolve(signal ? 1 : (code ?? 1)));
  });
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

async function vitest(project, label, env = {}) {
  const out = path.join(tmp, `vitest-${label}.json`);
  const code = await run(bin('vitest'), ['run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`], env);
  const r = readJson(out);
  if (r) {
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests;
  }
  if (code !== 0) {
    if (!r || r.numFailedTests === 0) totals.failed += 1; // a crash or an error outside a test
    failedStep ??= label;
  }
}

function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
  return candidates.find((p) => existsSync(p)) ?? null;
}

function canApt() {
  return process.getuid?.() === 0 && spawnSync('which', ['apt-get']).status === 0;
}

function aptInstall(pkgs) {
  console.log(`› apt-get install ${pkgs.join(' ')}`);
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  return spawnSync('apt-get', ['install', '-y', '-qq', ...pkgs], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0;
}

function ensureChromium() {
  let chromium = findChromium();
  if (!chromium && canApt()) {
    aptInstall(['chromium']);
    chromium = findChromium();
  }
  if (!chromium) {
    console.error(
      '\nChromium não encontrado. Instale o Chromium do Debian (sudo apt-get install chromium) ou defina CHROMIUM_PATH.\n' +
        'Nenhuma ferramenta baixa um navegador próprio.',
    );
    process.exit(1);
  }
  return chromium;
}

function findPgBin() {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base).filter((v) => Number(v) >= 15).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const dir = path.join(base, v, 'bin');
    if (existsSync(path.join(dir, 'initdb'))) return dir;
  }
  return null;
}

/** A throwaway PostgreSQL cluster on a free loopback port, run as the postgres OS user. */
async function startPostgres() {
  let pgBin = findPgBin();
  if (!pgBin && canApt()) {
    aptInstall(['postgresql']);
    pgBin = findPgBin();
  }
  if (!pgBin) return null;
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pg-test-'));
  const user = asRoot ? 'postgres' : os.userInfo().username;
  if (asRoot) {
    const uid = Number(spawnSync('id', ['-u', 'postgres']).stdout.toString().trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres']).stdout.toString().trim());
    chownSync(dir, uid, gid);
  }
  const as = (cmd, args) => (asRoot ? spawnSync('runuser', ['-u', 'postgres', '--', cmd, ...args]) : spawnSync(cmd, args));
  const port = await freePort();
  const data = path.join(dir, 'data');
  let r = as(path.join(pgBin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  if (r.status !== 0) {
    console.error(r.stderr.toString());
    return null;
  }
  r = as(path.join(pgBin, 'pg_ctl'), ['-D', data, '-l', path.join(dir, 'log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  if (r.status !== 0) {
    console.error(r.stderr.toString(), readFileSync(path.join(dir, 'log'), 'utf8'));
    return null;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      as(path.join(pgBin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
    user,
  };
}

// ── the steps ─────────────────────────────────────────────────────────────────────────────────
const chromium = ensureChromium();

step('Typecheck (tsc)');
if ((await run(bin('tsc'), ['-b', '--noEmit'])) !== 0) {
  totals.failed += 1;
  failedStep ??= 'typecheck';
}

step('Lint (eslint, and deno lint on supabase/functions)');
if ((await run(bin('eslint'), ['.', '--max-warnings=0'])) !== 0) {
  totals.failed += 1;
  failedStep ??= 'lint';
}
// Deno's recommended rules, but the functions import `npm:` specifiers inline on purpose (the only
// registry reachable here, and no import map to deploy beside them): no-import-prefix is off.
if ((await run(bin('deno'), ['lint', '--rules-exclude=no-import-prefix', 'supabase/functions'], { DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' })) !== 0) {
  totals.failed += 1;
  failedStep ??= 'lint';
}

step('Edge functions (deno check, deno test)');
{
  const fnDir = path.join(ROOT, 'supabase', 'functions');
  const entries = existsSync(fnDir)
    ? readdirSync(fnDir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .flatMap((d) => readdirSync(path.join(fnDir, d.name)).filter((f) => f.endsWith('.ts')).map((f) => path.join('supabase', 'functions', d.name, f)))
    : [];
  if (entries.length && (await run(bin('deno'), ['check', '--quiet', ...entries])) !== 0) {
    totals.failed += 1;
    failedStep ??= 'deno check';
  }
  // The functions' own unit tests (*.test.ts beside the code they test, e.g. the e-mails), in Deno.
  if ((await run(bin('deno'), ['test', '--quiet', '--allow-env', '--allow-net=127.0.0.1,localhost', 'supabase/functions'], { DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' })) !== 0) {
    totals.failed += 1;
    failedStep ??= 'deno test';
  }
}

step('Unit and component tests (Vitest, jsdom)');
await vitest('unit', 'unit');

step('Integration tests on PGlite (supabase-js → local-supabase)');
await vitest('integration', 'integration-pglite');

step('Integration tests on PostgreSQL, and the page budgets');
const pg = await startPostgres();
if (pg) {
  try {
    await vitest('integration', 'integration-postgres', { DATABASE_URL: pg.url });
  } finally {
    pg.stop();
  }
  // The student pages' statements and buffers against tests/budgets/student-pages.json (issue 38), on a
  // cluster of its own started with pg_stat_statements.
  await vitest('budgets', 'budgets');
} else {
  console.log('PostgreSQL (15+) não encontrado e não pôde ser instalado: etapa não executada.');
  if (process.env.CI) {
    totals.failed += 1;
    failedStep ??= 'postgres';
  }
}

step('End-to-end journeys (Playwright, Chromium)');
const apiPort = await freePort();
const webPort = await freePort();
const asaasPort = await freePort();
// The second backend, with the fake video host (playwright.config.ts), and the host itself.
const videoApiPort = await freePort();
const bunnyPort = await freePort();
const e2eEnv = {
  E2E_API_PORT: String(apiPort),
  E2E_WEB_PORT: String(webPort),
  E2E_ASAAS_PORT: String(asaasPort),
  E2E_VIDEO_API_PORT: String(videoApiPort),
  E2E_BUNNY_PORT: String(bunnyPort),
  CHROMIUM_PATH: chromium,
  VITE_SUPABASE_URL: `http://localhost:${apiPort}`,
  // The built SPA's Content-Security-Policy lets the browser reach the fake host.
  VIDEO_HOST_ORIGINS: `http://127.0.0.1:${bunnyPort}`,
};
if ((await run(bin('vite'), ['build', '--logLevel', 'warn'], e2eEnv)) !== 0) {
  totals.failed += 1;
  failedStep ??= 'build';
} else {
  const out = path.join(tmp, 'playwright.json');
  const code = await run(bin('playwright'), ['test', '--reporter=list,json'], { ...e2eEnv, PLAYWRIGHT_JSON_OUTPUT_FILE: out });
  const r = readJson(out);
  if (r?.stats) {
    totals.passed += r.stats.expected + r.stats.flaky;
    totals.failed += r.stats.unexpected;
  }
  if (code !== 0) {
    if (!r?.stats?.unexpected) totals.failed += 1;
    failedStep ??= 'e2e';
  }
}

// Every `npm run bench:*` at its smallest sizes, to its end (tests/benches/smoke.test.ts; issue 38).
step('Benchmarks, smoke runs (smallest sizes; figures not checked)');
await vitest('benches', 'benches');

rmSync(tmp, { recursive: true, force: true });
const minutes = ((Date.now() - started) / 60000).toFixed(1);
console.log(`\n${failedStep ? `Falhou: ${failedStep}. ` : ''}Tempo total: ${minutes} min`);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(failedStep ? 1 : 0);

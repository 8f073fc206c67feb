#!/usr/bin/env node
// Runs one of supabase-js's own client suites against a fresh local-supabase and prints passed/failed
// per test file and the share of its server tests that pass. Fetches nothing: the suite's code comes
// from a supabase-js checkout given with --path, with its jest already installed there (see USAGE).
//
//   node scripts/client-suites/run.mjs --suite postgrest --path /tmp/sbjs [--engine pglite|postgres]
//        [--failures] [--json-out file.json]
//
// --engine postgres uses the PostgreSQL of DATABASE_URL (a superuser), in a new database it drops after.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { freePort } from '../free-port.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const HERE = import.meta.dirname;

const USAGE = `usage: node scripts/client-suites/run.mjs --suite postgrest|storage|auth --path <supabase-js checkout> [--engine pglite|postgres] [--failures] [--json-out <file>]

Setup, once per checkout (nothing here is committed to this project):
  1. A supabase-js checkout, e.g. git clone https://github.com/supabase/supabase-js /tmp/sbjs
  2. The suites' test tools, installed beside it:
       mkdir -p /tmp/sbjs-deps && cd /tmp/sbjs-deps && npm init -y && \\
         npm install jest@30 ts-jest@29 @jest/test-sequencer@30 @jest/types@30 @types/jest@30 typescript@5.8 tslib@2.8.1 type-fest@4 zod@3 prettier@3 iceberg-js@0.8 \\
           jsonwebtoken@9 @types/jsonwebtoken@9 @faker-js/faker@9 jest-mock-server@0.1 jest-environment-jsdom@30
       ln -s /tmp/sbjs-deps/node_modules <checkout>/node_modules
  3. --suite auth only: the suite's own RSA signing key, which upstream generates before each run and
     never commits. Its test/supabase/config.toml names it ([auth] signing_keys_path), so the backend
     signs sessions with it, and its test/lib/clients.ts signs its anon, service-role and admin keys with it:
       cd <checkout>/packages/core/auth-js && node test/generate-signing-keys.js
     (writes test/supabase/signing_keys.json; run it again for a fresh key).`;

/**
 * What each suite needs: its package, the supabase/ folder its tests expect (`supabase start` +
 * `db reset` upstream), and the test files that are not the server suite.
 */
const SUITES = {
  postgrest: {
    title: 'postgrest-js',
    packageDir: 'packages/core/postgrest-js',
    supabaseDir: 'test/supabase',
    tsconfig: 'tsconfig.test.json',
    // Upstream runs these against a PostgREST 12 in docker, separately.
    ignore: ['<rootDir>/test/v12/'],
  },
  storage: {
    title: 'storage-js',
    packageDir: 'packages/core/storage-js',
    supabaseDir: 'test/supabase',
    tsconfig: 'tsconfig.test.json',
    ignore: [
      // Vector buckets and analytics (Iceberg) against the suite's own mock server (test/mock-server.ts;
      // USE_MOCK_SERVER=false would need a vectors API the CLI does not run either).
      '<rootDir>/test/[\\w-]+\\.spec\\.ts$',
      '<rootDir>/test/analytics-getcatalog\\.test\\.ts$',
      // Units: exports, URL and query building, errors from a mocked fetch; no request leaves the process.
      '<rootDir>/test/common/',
      '<rootDir>/test/(downloadBuilders|exports|list-sortby-defaults|storageFileApiErrorHandling)\\.test\\.ts$',
    ],
    // storageBucketApi and storageFileApi mix API tests with mocked-fetch ones: a server test is one
    // that sent a request to the API (jest-redirect.cjs notes them).
    serverTests: 'sent-a-request',
  },
  auth: {
    title: 'auth-js',
    packageDir: 'packages/core/auth-js',
    supabaseDir: 'test/supabase',
    tsconfig: 'tsconfig.test.json',
    // Setup step 3 of USAGE: the key its config.toml and its clients use.
    needs: { file: 'test/supabase/signing_keys.json', made: 'node test/generate-signing-keys.js' },
    // Upstream runs docker-tests against GoTrue containers of other settings (phone, signups off), separately.
    ignore: ['<rootDir>/test/docker-tests/', '<rootDir>/example/'],
    // The API's address is in test/lib/clients.ts: a server test file imports it.
    serverSource: /from '\.\/lib\/clients'/,
  },
};

const { values: args } = parseArgs({
  options: {
    suite: { type: 'string' },
    path: { type: 'string' },
    engine: { type: 'string', default: 'pglite' },
    failures: { type: 'boolean', default: false },
    'json-out': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help || !args.suite || !args.path) {
  console.log(USAGE);
  process.exit(args.help ? 0 : 2);
}
const suite = SUITES[args.suite];
if (!suite) {
  console.error(`unknown suite "${args.suite}"; known: ${Object.keys(SUITES).join(', ')}`);
  process.exit(2);
}
if (args.engine !== 'pglite' && args.engine !== 'postgres') {
  console.error('--engine is pglite or postgres');
  process.exit(2);
}
if (args.engine === 'postgres' && !process.env.DATABASE_URL) {
  console.error('--engine postgres needs DATABASE_URL (a superuser connection to a PostgreSQL 15+ cluster)');
  process.exit(2);
}

const checkout = path.resolve(args.path);
const pkgDir = path.join(checkout, suite.packageDir);
if (!existsSync(path.join(pkgDir, 'package.json'))) {
  console.error(`${pkgDir} is not there: --path must be a supabase-js checkout`);
  process.exit(2);
}
let jestBin;
try {
  jestBin = path.join(
    path.dirname(createRequire(path.join(pkgDir, 'package.json')).resolve('jest/package.json')),
    'bin',
    'jest.js',
  );
} catch {
  console.error(`jest is not installed for ${pkgDir}.\n\n${USAGE}`);
  process.exit(2);
}
if (suite.needs && !existsSync(path.join(pkgDir, suite.needs.file))) {
  console.error(`${suite.needs.file} is missing: run \`${suite.needs.made}\` in ${pkgDir} first.\n\n${USAGE}`);
  process.exit(2);
}

const cleanups = [];
async function cleanup() {
  while (cleanups.length) {
    try {
      await cleanups.pop()();
    } catch (e) {
      console.error('cleanup:', e.message);
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => void cleanup().finally(() => process.exit(130)));
}

try {
  const work = mkdtempSync(path.join(os.tmpdir(), `client-suite-${args.suite}-`));
  cleanups.push(() => rmSync(work, { recursive: true, force: true }));

  // ── the database ──────────────────────────────────────────────────────────────────────────────
  let databaseUrl = null;
  let hasPostgis = false;
  if (args.engine === 'postgres') {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const db = `client_suite_${args.suite}_${process.pid}`;
    await admin.query(`drop database if exists ${db} with (force)`);
    await admin.query(`create database ${db}`);
    hasPostgis = (await admin.query(`select 1 from pg_available_extensions where name = 'postgis'`)).rowCount > 0;
    // Role settings are cluster-wide, and suites set PostgREST's on authenticator (`alter role
    // authenticator set pgrst.db_aggregates_enabled ...`): put back what the cluster had.
    const before = await authenticatorSettings(admin);
    await admin.end();
    cleanups.push(async () => {
      const a = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await a.connect();
      try {
        if (JSON.stringify(await authenticatorSettings(a)) === JSON.stringify(before)) return;
        await a.query('alter role authenticator reset all');
        for (const kv of before ?? []) {
          const i = kv.indexOf('=');
          await a.query(
            `alter role authenticator set "${kv.slice(0, i).replaceAll('"', '""')}" = '${kv.slice(i + 1).replaceAll("'", "''")}'`,
          );
        }
      } finally {
        await a.end();
      }
    });
    const u = new URL(process.env.DATABASE_URL);
    u.pathname = `/${db}`;
    databaseUrl = u.toString();
    cleanups.push(async () => {
      const a = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await a.connect();
      await a.query(`drop database if exists ${db} with (force)`);
      await a.end();
    });
  }

  // ── the project: the suite's supabase/ folder, copied ─────────────────────────────────────────
  const projectDir = path.join(work, 'project');
  const supabaseDir = path.join(projectDir, 'supabase');
  mkdirSync(supabaseDir, { recursive: true });
  cpSync(path.join(pkgDir, suite.supabaseDir), supabaseDir, { recursive: true });
  const notes = [];
  if (!hasPostgis) notes.push(...withoutPostgis(supabaseDir));

  // ── the backend ───────────────────────────────────────────────────────────────────────────────
  const port = await freePort();
  const env = { ...process.env, LOCAL_SUPABASE_PORT: String(port) };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const serverLog = path.join(work, 'server.log');
  const logLines = [];
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, 'serve.ts'), projectDir], {
    cwd: ROOT,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  createInterface({ input: child.stderr }).on('line', (line) => logLines.push(line));
  const started = Date.now();
  const apiUrl = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('ready ')) resolve(line.slice('ready '.length));
      else logLines.push(line);
    });
    void exited.then((code) =>
      reject(new Error(`local-supabase exited (${code}) before it was ready:\n${startupError(logLines)}`)),
    );
  });
  console.log(
    `${suite.title} against local-supabase (${args.engine}) at ${apiUrl}, ready in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  for (const n of notes) console.log(`note: ${n}`);

  // ── the suite ─────────────────────────────────────────────────────────────────────────────────
  const resultsFile = path.join(work, 'results.json');
  const jestLog = path.join(work, 'jest.log');
  const hitsFile = path.join(work, 'hits.tsv');
  const config = {
    rootDir: pkgDir,
    testEnvironment: 'node',
    transform: { '^.+\\.tsx?$': ['ts-jest', { tsconfig: `<rootDir>/${suite.tsconfig}` }] },
    testSequencer: existsSync(path.join(pkgDir, 'test', 'testSequencer.js'))
      ? '<rootDir>/test/testSequencer.js'
      : undefined,
    testTimeout: 30000,
    testPathIgnorePatterns: ['/node_modules/', ...suite.ignore],
    setupFiles: [path.join(HERE, 'jest-redirect.cjs')],
  };
  const jest = spawn(
    process.execPath,
    [jestBin, '--ci', '--runInBand', '--json', `--outputFile=${resultsFile}`, `--config=${JSON.stringify(config)}`],
    {
      cwd: pkgDir,
      env: { ...process.env, CLIENT_SUITE_API_URL: apiUrl, CLIENT_SUITE_HITS: hitsFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const jestOut = [];
  jest.stdout.on('data', (d) => jestOut.push(d));
  jest.stderr.on('data', (d) => jestOut.push(d));
  await new Promise((resolve) => jest.once('exit', resolve));
  writeFileSync(jestLog, Buffer.concat(jestOut));
  if (!existsSync(resultsFile))
    throw new Error(`jest wrote no results:\n${Buffer.concat(jestOut).toString().slice(-4000)}`);
  const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  writeFileSync(serverLog, logLines.join('\n'));
  if (args['json-out']) writeFileSync(args['json-out'], JSON.stringify(results, null, 2));

  // ── the report ────────────────────────────────────────────────────────────────────────────────
  // A server test file is one that talks to the API (the CLI's address); the others mock fetch. With
  // serverTests 'sent-a-request', a file is split in two rows: its tests that sent a request, the rest.
  const hits = new Set(existsSync(hitsFile) ? readFileSync(hitsFile, 'utf8').split('\n') : []);
  const rows = results.testResults.flatMap((file) => {
    const rel = path.relative(pkgDir, file.name);
    const source = readFileSync(file.name, 'utf8');
    const row = (assertions, server, label = rel) => {
      const count = (s) => assertions.filter((a) => a.status === s).length;
      return {
        rel: label,
        server,
        passed: count('passed'),
        failed: count('failed') + (file.status === 'failed' && file.assertionResults.length === 0 ? 1 : 0),
        skipped: count('pending') + count('skipped') + count('todo'),
        error: file.assertionResults.length === 0 ? file.message : null,
        failures: assertions.filter((a) => a.status === 'failed'),
      };
    };
    const server = (suite.serverSource ?? /\/\/(localhost|127\.0\.0\.1):54321\b/).test(source);
    if (suite.serverTests !== 'sent-a-request' || !server || file.assertionResults.length === 0) {
      return [row(file.assertionResults, server)];
    }
    const sent = (a) => hits.has(`${file.name}\t${a.fullName}`);
    const mocked = file.assertionResults.filter((a) => !sent(a));
    return [
      row(file.assertionResults.filter(sent), true),
      ...(mocked.length ? [row(mocked, false, `${rel} (no request)`)] : []),
    ];
  });
  rows.sort((a, b) => a.rel.localeCompare(b.rel));
  const width = Math.max(...rows.map((r) => r.rel.length));
  console.log('');
  for (const r of rows) {
    console.log(
      `${r.server ? 'server' : 'local '}  ${r.rel.padEnd(width)}  ${String(r.passed).padStart(3)} passed  ${String(r.failed).padStart(3)} failed${r.skipped ? `  ${r.skipped} skipped` : ''}`,
    );
    if (r.error) console.log(`        ${r.error.split('\n').slice(0, 6).join('\n        ')}`);
  }
  const sum = (list, k) => list.reduce((n, r) => n + r[k], 0);
  const server = rows.filter((r) => r.server);
  const sp = sum(server, 'passed');
  const st = sp + sum(server, 'failed');
  console.log('');
  console.log(`all tests: ${sum(rows, 'passed')} passed, ${sum(rows, 'failed')} failed`);
  console.log(
    `${suite.title} server tests (${args.engine}): ${sp} passed, ${st - sp} failed of ${st} = ${st ? ((100 * sp) / st).toFixed(1) : '0.0'}%`,
  );
  if (args.failures) {
    console.log('\nfailing server tests:');
    for (const r of server) {
      for (const f of r.failures) {
        console.log(`\n● ${r.rel} › ${f.fullName}`);
        console.log('  ' + (f.failureMessages.join('\n') || '').split('\n').slice(0, 40).join('\n  '));
      }
    }
  }
  if (logLines.some((l) => /internal error/.test(l))) {
    console.log(
      `\nlocal-supabase logged internal errors (5xx):\n${logLines
        .filter((l) => /internal error/.test(l))
        .slice(0, 20)
        .join('\n')}`,
    );
  }
} catch (e) {
  console.error(e.stack ?? e);
  process.exitCode = 1;
} finally {
  await cleanup();
}

/** What a failed start printed: its error lines (a migration's message), then its last lines. */
function startupError(lines) {
  const errors = lines.filter((l) => /^\s*(\w*Error|error):|failed:/.test(l)).slice(0, 5);
  return [...errors, '…', ...lines.slice(-15)].join('\n');
}

/** The cluster-wide settings of the authenticator role (null: none, or no such role yet). */
async function authenticatorSettings(client) {
  const r = await client.query(
    `select s.setconfig from pg_db_role_setting s join pg_roles r on r.oid = s.setrole where r.rolname = 'authenticator' and s.setdatabase = 0`,
  );
  return r.rows[0]?.setconfig ?? null;
}

/**
 * PostGIS is not in PGlite nor in a PostgreSQL without the postgis package: the suite's migration
 * then creates geometry columns as text, so the rest of its schema loads (the geojson test fails).
 */
function withoutPostgis(supabaseDir) {
  const notes = [];
  const dir = path.join(supabaseDir, 'migrations');
  if (!existsSync(dir)) return notes; // storage-js's folder has only a seed
  for (const f of readdirSync(dir)) {
    const file = path.join(dir, f);
    const sql = readFileSync(file, 'utf8');
    if (!/create\s+extension\s+(if\s+not\s+exists\s+)?postgis\b/i.test(sql)) continue;
    const changed = sql
      .replace(/create\s+extension\s+(if\s+not\s+exists\s+)?postgis\b[^;]*;/gi, '/* no PostGIS here: $& */')
      .replace(/\bextensions\.geometry\s*\([^)]*\)/gi, 'text');
    writeFileSync(file, changed);
    notes.push(
      `PostGIS is not available to this engine: ${f} creates its geometry columns as text (geojson cannot pass)`,
    );
  }
  return notes;
}

// `npm run bench:rest`: the REST layer of local-supabase measured from ANOTHER process (the server
// runs in its own, scripts/bench/load-server.ts with the demo seed), on PGlite and on a throwaway
// PostgreSQL, at 10 and 50 concurrent keep-alive connections, BENCH_SECONDS (default 10) each:
//   - the student's embedded select: courses → modules → lessons, as aluno@escola-demo.com.br;
//   - an anonymous single-row GET: the login page's school by slug.
// Prints requests/s and p50/p95/p99 with the issue-12 targets beside them. Not part of `npm test`.
// The load comes from autocannon (keep-alive sockets, no fetch machinery): the bench measures the
// server, not the client, which shares this machine's two cores with it.
import autocannon from 'autocannon';
import { cleanup, findPgBin, isInterrupted, startBackend, startPostgres } from './processes.ts';

const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const DB = process.env.BENCH_DB || 'both';
const CONNECTIONS = [10, 50];
const EMBEDDED = '/rest/v1/courses?select=id,title,slug,price,modules(id,title,order_index,lessons(id,title,video_type,duration_sec,order_index,is_preview))&order=title';
const SINGLE_ROW = '/rest/v1/schools?select=id,slug,name,member_area_name,primary_color&slug=eq.escola-demo';
/** Targets at 50 connections: [embedded req/s, embedded p95 ms, single-row req/s]. */
const TARGETS = { pglite: [600, Infinity, 1500], postgres: [1000, 50, 3000] } as const;

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function drive(url: string, headers: Record<string, string>, connections: number) {
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, headers, connections, duration: SECONDS }, (error, r) => (error ? reject(error) : resolve(r)));
    // Every response's time, for exact percentiles (autocannon's own summary has no p95).
    instance.on('response', (_client, _status, _bytes, ms) => times.push(ms));
  });
  times.sort((a, b) => a - b);
  const errors = result.errors + result.timeouts + result.non2xx;
  return { rps: times.length / (result.duration || SECONDS), p50: pct(times, 50), p95: pct(times, 95), p99: pct(times, 99), errors };
}

async function runEngine(engine: 'pglite' | 'postgres', databaseUrl: string | null) {
  const backend = await startBackend(databaseUrl, { BENCH_SEED: 'demo' });
  const auth = await fetch(`${backend.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: backend.anonKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'aluno@escola-demo.com.br', password: 'senha123' }),
  }).then((r) => r.json() as Promise<{ access_token: string }>);
  const student = { apikey: backend.anonKey, Authorization: `Bearer ${auth.access_token}`, 'Accept-Encoding': 'gzip' };
  const anon = { apikey: backend.anonKey, Authorization: `Bearer ${backend.anonKey}` };
  // Warm up: the first requests fill the server's caches.
  await drive(`${backend.url}${EMBEDDED}`, student, 4).catch(() => undefined);
  console.log(`\n━━ ${engine === 'pglite' ? 'PGlite (in-memory, in the server process)' : 'PostgreSQL (throwaway local cluster)'}`);
  console.log('query                     │ conns │   req/s │ p50 ms │ p95 ms │ p99 ms │ errors');
  const [minEmbedded, maxP95, minSingle] = TARGETS[engine];
  for (const connections of CONNECTIONS) {
    for (const [name, path, headers] of [['embedded student select', EMBEDDED, student], ['anon single-row GET', SINGLE_ROW, anon]] as const) {
      const r = await drive(`${backend.url}${path}`, headers, connections);
      const target =
        connections !== 50 ? '' : name.startsWith('embedded') ? `  target ≥ ${minEmbedded} req/s${Number.isFinite(maxP95) ? `, p95 ≤ ${maxP95} ms` : ''}` : `  target ≥ ${minSingle} req/s`;
      console.log(
        `${name.padEnd(25)} │ ${String(connections).padStart(5)} │ ${r.rps.toFixed(0).padStart(7)} │ ${r.p50.toFixed(1).padStart(6)} │ ${r.p95.toFixed(1).padStart(6)} │ ${r.p99.toFixed(1).padStart(6)} │ ${String(r.errors).padStart(6)}${target}`,
      );
    }
  }
  backend.child.kill('SIGTERM');
}

async function main() {
  try {
    if (DB === 'pglite' || DB === 'both') await runEngine('pglite', null);
    if (DB === 'postgres' || DB === 'both') {
      const pgBin = findPgBin();
      if (!pgBin) console.log('\nPostgreSQL binaries not found: skipped.');
      else await runEngine('postgres', (await startPostgres(pgBin)).url);
    }
  } finally {
    await cleanup();
  }
}

main().catch((e) => {
  if (!isInterrupted()) console.error(e);
  process.exitCode = 1;
});

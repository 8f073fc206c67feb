// `npm run bench:load`: the student pages under load (issue 12). Starts local-supabase in a separate
// process (scripts/bench/load-server.ts: fresh, migrated, seeded, plus the large school of
// large-school.ts and 20,000 enrollments / 20,000 comments), then BENCH_USERS (default 50) virtual
// students, each a distinct seeded student with its own supabase-js client, loop through the pages for
// BENCH_SECONDS (default 60) with the SPA's own query functions: sign in once, then home, course,
// lesson, save position, complete lesson, comment, rate. Prints per page: count, pages/s, p50/p95/p99
// latency and errors, on PGlite and then on a throwaway PostgreSQL cluster (BENCH_DB=pglite|postgres|both).
// BENCH_THINK_MS (default 1000) is each student's pause after every page, ±50% at random, and the
// students arrive over the first BENCH_RAMP_S seconds (default 10): people click, read and click
// again, and do not all sign in in the same instant. A latency target only means something with a
// pause: in a closed loop without one (BENCH_THINK_MS=0, a saturation test that prints the machine's
// capacity in pages/s) every page waits by Little's law 50 / throughput, whatever the server does.
// "pages/s" counts pages; a page is every request the SPA makes for it (home = 2 requests).
// Also prints the database's CPU per API request (PostgreSQL: its processes' CPU from /proc; PGlite: the
// server process's, PGlite being inside it).
// Targets: p95 ≤ 150 ms per page on PGlite, ≤ 50 ms on PostgreSQL, zero errors — printed as PASS/FAIL;
// the exit code is non-zero only when the run itself broke (a benchmark prints figures; it is no test).
// Run: node --experimental-websocket --import tsx scripts/bench/load.ts
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { PASSWORD, STUDENTS, STUDENT_EMAIL } from './large-school.ts';
import { clickableLessons, loadPage, type CourseOutline } from './student-pages.ts';
import { cleanup, findPgBin, isInterrupted, procStat, sleep, startBackend, startPostgres } from './processes.ts';

const USERS = Number(process.env.BENCH_USERS || 50);
const SECONDS = Number(process.env.BENCH_SECONDS || 60);
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 1000);
const RAMP_S = THINK_MS > 0 ? Number(process.env.BENCH_RAMP_S ?? 10) : 0;
const DB = process.env.BENCH_DB || 'both';
const TARGET_P95 = { pglite: 150, postgres: 50 } as const;
type EngineName = keyof typeof TARGET_P95;

const PAGES = ['sign in', 'home', 'course', 'lesson', 'save position', 'complete lesson', 'comment', 'rate'] as const;
type Page = (typeof PAGES)[number];

// ── measuring ────────────────────────────────────────────────────────────────────────────────────
interface PageStats {
  times: number[];
  errors: number;
  messages: string[];
}

function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  const o = e as { message?: string; code?: string } | null;
  return o?.message ? `${o.code ?? ''} ${o.message}`.trim() : JSON.stringify(e);
}

/** Times one page (every request the SPA makes for it); a thrown error or a supabase-js error counts. */
async function measure<T>(stats: Record<Page, PageStats>, page: Page, load: () => Promise<T>): Promise<T | undefined> {
  const s = stats[page];
  const start = performance.now();
  try {
    return await load();
  } catch (e) {
    s.errors++;
    if (s.messages.length < 3) s.messages.push(errorText(e));
    return undefined;
  } finally {
    s.times.push(performance.now() - start);
    // ±50% at random, so students that started together do not keep loading the same page at once.
    if (THINK_MS > 0) await sleep(THINK_MS * (0.5 + Math.random()));
  }
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN);

/** Busy and total CPU time of the whole machine, from /proc/stat; null elsewhere. */
function machineCpu(): { busy: number; total: number } | null {
  try {
    const [, ...nums] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number);
    const total = nums.reduce((a, b) => a + b, 0);
    const idle = nums[3]! + nums[4]!; // idle + iowait
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

// ── one virtual student ──────────────────────────────────────────────────────────────────────────
const emailOf = (i: number) => (i === 1 ? STUDENT_EMAIL : `bench.${i}@escola-bench.com.br`);

async function virtualStudent(i: number, client: SupabaseClient, stats: Record<Page, PageStats>, deadline: number) {
  const running = () => performance.now() < deadline;
  if (RAMP_S > 0) await sleep(Math.random() * RAMP_S * 1000); // arrivals spread over the ramp
  // Sign in as the SPA's login does: the password grant, then the profile check.
  const userId = await measure(stats, 'sign in', async () => {
    const { data, error } = await client.auth.signInWithPassword({ email: emailOf(i), password: PASSWORD });
    if (error) throw error;
    const profile = await client.from('profiles').select('*').eq('id', data.user.id).maybeSingle();
    if (profile.error) throw profile.error;
    if (!profile.data) throw new Error(`no profile for ${emailOf(i)}`);
    return data.user.id;
  });
  if (!userId) return; // counted as an error; this student cannot go on

  let lessonIds: string[] = [];
  let lastCommentAt = 0;
  for (let round = 0; running(); round++) {
    const visit = { client, userId, lessonId: '', round };
    await measure(stats, 'home', () => loadPage('home', visit));
    if (!running()) break;
    const loaded = await measure(stats, 'course', () => loadPage('course', visit));
    if (loaded) lessonIds = clickableLessons(loaded[0] as CourseOutline);
    if (!lessonIds.length || !running()) continue;
    // Students spread over the lessons, and move to another one each round.
    visit.lessonId = lessonIds[(i * 37 + round) % lessonIds.length]!;
    await measure(stats, 'lesson', () => loadPage('lesson', visit));
    if (!running()) break;
    await measure(stats, 'save position', () => loadPage('save position', visit));
    if (!running()) break;
    await measure(stats, 'complete lesson', () => loadPage('complete lesson', visit));
    if (!running()) break;
    // At most one comment every 15 s: the database refuses a student's 6th comment within a minute (issue 26),
    // and under load a request may reach it sooner than the one sent 12 s before did.
    if (Date.now() - lastCommentAt >= 15_000) {
      lastCommentAt = Date.now();
      await measure(stats, 'comment', () => loadPage('comment', visit));
      if (!running()) break;
    }
    await measure(stats, 'rate', () => loadPage('rate', visit));
  }
}

// ── one engine ───────────────────────────────────────────────────────────────────────────────────
/** databaseCpu: CPU seconds of the PostgreSQL processes so far (none for PGlite: it is in the server). */
async function runEngine(engine: EngineName, databaseUrl: string | null, databaseCpu: (() => number) | null) {
  const title = engine === 'pglite' ? 'PGlite (in-memory, in the server process)' : 'PostgreSQL (throwaway local cluster)';
  console.log(`\n━━ ${title} ${'━'.repeat(Math.max(0, 70 - title.length))}`);
  const t0 = performance.now();
  const backend = await startBackend(databaseUrl);
  const c = backend.counts;
  console.log(
    `backend ${backend.url} (${backend.engine}, pid ${backend.child.pid}): started and seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s ` +
      `(large school + extra rows: ${backend.seedSeconds} s)`,
  );
  console.log(
    `school: ${c.courses} courses, ${c.lessons} lessons, ${c.students} students, ${c.enrollments} enrollments, ` +
      `${c.progress} progress rows, ${c.comments} lesson comments`,
  );

  // One client per virtual student (its own session), all counting HTTP requests in one counter.
  let httpRequests = 0;
  const countingFetch: typeof fetch = (input, init) => {
    httpRequests++;
    return fetch(input, init);
  };
  const clients = Array.from({ length: USERS }, () =>
    createClient(backend.url, backend.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      global: { fetch: countingFetch },
    }),
  );
  const stats = Object.fromEntries(PAGES.map((p) => [p, { times: [], errors: 0, messages: [] }])) as unknown as Record<Page, PageStats>;

  // The machine may be shared (other test runs): show how busy it was before we start.
  console.log(
    `load: ${USERS} students, ${SECONDS} s, ` +
      (THINK_MS > 0 ? `think time ${THINK_MS} ms ±50% after each page, arrivals over ${RAMP_S} s; ` : 'no think time (closed loop at full speed: saturation); ') +
      `machine load average before the run ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores…`,
  );
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const serverCpu = () => procStat(backend.child.pid!)?.cpu ?? 0;
  const cpu0 = { self: process.cpuUsage(), server: serverCpu(), database: databaseCpu?.() ?? 0, machine: machineCpu() };
  const start = performance.now();
  const deadline = start + SECONDS * 1000;
  await Promise.all(clients.map((client, k) => virtualStudent(k + 1, client, stats, deadline)));
  const elapsed = (performance.now() - start) / 1000;
  lag.disable();
  // CPU over the run, in cores (1.00 = one core busy all the time).
  const self = process.cpuUsage(cpu0.self);
  const cores = {
    generator: (self.user + self.system) / 1e6 / elapsed,
    server: (serverCpu() - cpu0.server) / elapsed,
    database: ((databaseCpu?.() ?? 0) - cpu0.database) / elapsed,
  };
  const machine = machineCpu();
  const machineCores = machine && cpu0.machine ? ((machine.busy - cpu0.machine.busy) / (machine.total - cpu0.machine.total)) * os.cpus().length : NaN;

  // The table.
  const target = TARGET_P95[engine];
  const rows = PAGES.map((page) => {
    const s = stats[page];
    const sorted = [...s.times].sort((a, b) => a - b);
    const p95 = percentile(sorted, 95);
    const pass = s.times.length > 0 && s.errors === 0 && p95 <= target;
    return [page, String(s.times.length), (s.times.length / elapsed).toFixed(1), ...[50, 95, 99].map((p) => percentile(sorted, p).toFixed(0)), String(s.errors), pass ? 'PASS' : 'FAIL'];
  });
  const header = ['page', 'count', 'pages/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors', `p95 ≤ ${target} ms, 0 errors`];
  const widths = header.map((h, k) => Math.max(h.length, ...rows.map((r) => r[k]!.length)));
  const line = (cells: string[]) => cells.map((cell, k) => (k === 0 ? cell.padEnd(widths[k]!) : cell.padStart(widths[k]!))).join(' │ ');
  console.log('');
  console.log(line(header));
  console.log(widths.map((w) => '─'.repeat(w)).join('─┼─'));
  for (const r of rows) console.log(line(r));

  const pages = PAGES.reduce((n, p) => n + stats[p].times.length, 0);
  const errors = PAGES.reduce((n, p) => n + stats[p].errors, 0);
  console.log('');
  console.log(`total: ${pages} pages in ${elapsed.toFixed(1)} s = ${(pages / elapsed).toFixed(1)} pages/s, ${(httpRequests / elapsed).toFixed(1)} HTTP requests/s, ${errors} errors`);
  const cpu = [`load generator ${cores.generator.toFixed(2)}`, `server process ${cores.server.toFixed(2)}`];
  if (databaseCpu) cpu.push(`PostgreSQL ${cores.database.toFixed(2)}`);
  if (!Number.isNaN(machineCores)) cpu.push(`everything else ${Math.max(0, machineCores - cores.generator - cores.server - cores.database).toFixed(2)} (machine ${machineCores.toFixed(2)} of ${os.cpus().length})`);
  console.log(`CPU in cores busy: ${cpu.join(', ')}; load generator event-loop delay p99 ${(lag.percentile(99) / 1e6).toFixed(0)} ms`);
  // The database's CPU per API request. PostgreSQL: the CPU the postmaster and its backends used (from
  // /proc: what the processes really burned, parsing, planning, executing, committing and the wire
  // protocol included, with no extension needed; pg_stat_statements' total_exec_time is wall time of
  // execution only). PGlite runs inside the server process, so there it is that process's CPU, HTTP,
  // JSON and auth included: an upper bound.
  const perRequest = (cores: number) => `${((cores * elapsed * 1000) / httpRequests).toFixed(2)} ms`;
  console.log(
    databaseCpu
      ? `database CPU per request: ${perRequest(cores.database)} (PostgreSQL's processes, from /proc, over ${httpRequests} HTTP requests)`
      : `database CPU per request: ≤ ${perRequest(cores.server)} (the server process, PGlite inside it, from /proc, over ${httpRequests} HTTP requests)`,
  );
  for (const page of PAGES) {
    for (const m of stats[page].messages) console.log(`  error (${page}): ${m}`);
  }
  const failed = rows.filter((r) => r[7] === 'FAIL').map((r) => r[0]);
  console.log(failed.length ? `${title}: FAIL (${failed.join(', ')})` : `${title}: PASS (every page p95 ≤ ${target} ms, no errors)`);
}

// ── main ─────────────────────────────────────────────────────────────────────────────────────────
async function main() {
  if (!['pglite', 'postgres', 'both'].includes(DB)) throw new Error(`BENCH_DB must be pglite, postgres or both (got ${DB})`);
  if (!(USERS >= 1 && USERS <= STUDENTS)) throw new Error(`BENCH_USERS must be between 1 and ${STUDENTS} (the seeded students)`);
  if (DB !== 'postgres') {
    await runEngine('pglite', null, null);
    await cleanup(); // stop this backend before the next one takes the CPU
  }
  if (DB !== 'pglite') {
    const pgBin = findPgBin();
    if (!pgBin) {
      console.log('\nPostgreSQL (15+) not found in /usr/lib/postgresql: the PostgreSQL run is skipped.');
      return;
    }
    const cluster = await startPostgres(pgBin);
    await runEngine('postgres', cluster.url, cluster.cpuSeconds);
  }
}

try {
  await main();
} catch (e) {
  // After Ctrl+C the backend goes away under our feet: that error is expected, not news.
  if (!isInterrupted()) console.error(e);
  process.exitCode = 1;
} finally {
  await cleanup();
}

// Issue 38, the student pages' database work under a budget (ARCHITECTURE "Budgets"). On the bench-sized
// school (scripts/bench/large-school.ts: 200 courses, 5,000 students, 100,000 progress rows, 20,000
// enrollments and 20,000 comments), each student page of scripts/bench/student-pages.ts is loaded through
// local-supabase as the bench student, and PostgreSQL's pg_stat_statements counts what it ran: every SQL
// statement, the nested ones too (policy helpers, trigger queries), and the shared-buffer pages they
// touched. Both are compared with student-pages.json; a page over its budget fails, naming the page and
// its statements beside those of the budget, the new and the grown ones first. No timings: the counts
// are the same on every machine with the same PostgreSQL.
//
// Why PostgreSQL only, in its own cluster: pg_stat_statements must be loaded when the server starts
// (shared_preload_libraries), which neither the shared test server nor PGlite's engine does, and the
// counts must come from one fixed configuration to be comparable (autovacuum off, nested statements
// tracked). EXPLAIN (ANALYZE, BUFFERS) would work on PGlite too, but it neither sees nor names the
// statements an AFTER trigger runs. PostgreSQL is what production runs; `npm test` runs this in its
// PostgreSQL step (scripts/test.mjs).
//
// A feature that needs more work says why and changes the budget in the same commit:
//   BUDGETS_UPDATE=1 npx vitest run --project budgets
// writes the measured figures (statements exact, buffers with 25% headroom) into student-pages.json.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../local-supabase/server.ts';
import { EXTRA, PASSWORD, SEED, STUDENT_EMAIL } from '../../scripts/bench/large-school.ts';
import { cleanup, findPgBin, startPostgres } from '../../scripts/bench/processes.ts';
import { STUDENT_PAGES, clickableLessons, fetchBigCourse, type StudentPage, type StudentVisit } from '../../scripts/bench/student-pages.ts';

const BUDGET_FILE = path.join(import.meta.dirname, 'student-pages.json');
const UPDATE = process.env.BUDGETS_UPDATE === '1';
const BUFFER_HEADROOM = 1.25;
const PAGES = Object.keys(STUDENT_PAGES) as StudentPage[];

/** One statement shape of a page (pg_stat_statements' normalized text), with what it did on that page. */
interface QueryWork {
  query: string;
  calls: number;
  rows: number;
  buffers: number;
  /** Run inside another statement (a policy helper, a function's body, a trigger). */
  nested: boolean;
}
interface PageWork {
  statements: number;
  buffers: number;
  execMs: number;
  queries: QueryWork[];
}
interface Budget {
  statements: number;
  buffers: number;
  /** The page's statements when the budget was set: what a failure is compared with. */
  queries: Omit<QueryWork, 'rows'>[];
}
interface BudgetFile {
  note: string;
  postgres: number;
  pages: Record<string, Budget>;
}

let server: RunningServer;
let stats: pg.Client;
let client: SupabaseClient;
let userId: string;
let lessons: string[];
let postgresMajor: number;
const measured: Partial<Record<StudentPage, PageWork>> = {};

beforeAll(async () => {
  const pgBin = findPgBin();
  if (!pgBin) throw new Error('The page budgets need PostgreSQL 15+ (/usr/lib/postgresql/<version>/bin): apt-get install postgresql');
  // track=all: the statements of functions and triggers too. No autovacuum: nothing runs beside the
  // pages. Generic plans from the first call: a server that has run for a while uses the plans it
  // cached for each statement (prepared statements, plpgsql helpers); the first five calls on a
  // connection plan again with the values, and that planning reads index pages (a join's ends) that
  // would be counted as the page's work.
  const cluster = await startPostgres(
    pgBin,
    '-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all -c pg_stat_statements.max=10000 -c autovacuum=off -c plan_cache_mode=force_generic_plan',
  );
  server = await startServer({ port: 0, databaseUrl: cluster.url }, { fresh: true, quiet: true, jobs: 'manual' });
  await server.ctx.engine.exec(SEED + EXTRA);
  await server.ctx.engine.exec('analyze');
  stats = new pg.Client({ connectionString: cluster.url });
  await stats.connect();
  await stats.query('create extension pg_stat_statements');
  postgresMajor = Math.floor(Number((await stats.query<{ v: string }>(`select current_setting('server_version_num') as v`)).rows[0]!.v) / 10000);

  client = createClient(server.url, server.ctx.config.anonKey, { auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } });
  const { data, error } = await client.auth.signInWithPassword({ email: STUDENT_EMAIL, password: PASSWORD });
  if (error) throw error;
  userId = data.user.id;
  // Lessons the student never opened (the seed gave 20 of them progress, picked by random id): every
  // run starts each page from the same state.
  const course = await fetchBigCourse({ client, userId });
  const opened = new Set(course?.progress.map((p) => p.lesson_id));
  lessons = clickableLessons(course).filter((id) => !opened.has(id));
}, 300_000);

afterAll(async () => {
  if (UPDATE && PAGES.every((p) => measured[p])) writeBudgets();
  await stats?.end();
  await server?.close();
  await cleanup();
});

/** Collapses whitespace and string literals (a session's JWT, a comment's text), and cuts at 200 characters. */
const shape = (query: string) => query.replace(/'(?:[^']|'')*'/g, "'…'").replace(/\s+/g, ' ').trim().slice(0, 200);

/**
 * Loads the page once to warm it (plans cached on the connection, the lesson's first write done), then
 * again with the statistics reset, and reads what the second load ran. The page's requests go one after
 * the other, so they meet the same warm connection each time (the SPA sends home's two at once; the
 * work is the same).
 */
async function measure(page: StudentPage, warm: StudentVisit, visit: StudentVisit): Promise<PageWork> {
  for (const request of STUDENT_PAGES[page]) await request(warm);
  await stats.query('select pg_stat_statements_reset()');
  for (const request of STUDENT_PAGES[page]) await request(visit);
  const { rows } = await stats.query<{ query: string; toplevel: boolean; calls: string; rows: string; buffers: string; exec_ms: number }>(
    `select query, toplevel, calls, rows, shared_blks_hit + shared_blks_read as buffers, total_exec_time as exec_ms
       from pg_stat_statements
      where dbid = (select oid from pg_database where datname = current_database()) and query not like '%pg_stat_statements%'`,
  );
  const queries = new Map<string, QueryWork>();
  for (const r of rows) {
    const key = `${r.toplevel ? '' : 'nested '}${shape(r.query)}`;
    const q = queries.get(key) ?? { query: shape(r.query), calls: 0, rows: 0, buffers: 0, nested: !r.toplevel };
    q.calls += Number(r.calls);
    q.rows += Number(r.rows);
    q.buffers += Number(r.buffers);
    queries.set(key, q);
  }
  const list = [...queries.values()].sort((a, b) => Number(a.nested) - Number(b.nested) || b.buffers - a.buffers || b.calls - a.calls || a.query.localeCompare(b.query));
  const top = rows.filter((r) => r.toplevel);
  return {
    statements: list.reduce((n, q) => n + q.calls, 0),
    // A top-level statement's buffers include those of the statements it ran.
    buffers: top.reduce((n, r) => n + Number(r.buffers), 0),
    execMs: top.reduce((n, r) => n + r.exec_ms, 0),
    queries: list,
  };
}

function readBudgets(): BudgetFile {
  return JSON.parse(readFileSync(BUDGET_FILE, 'utf8')) as BudgetFile;
}

function writeBudgets() {
  const pages: Record<string, Budget> = {};
  for (const page of PAGES) {
    const work = measured[page]!;
    pages[page] = {
      statements: work.statements,
      buffers: Math.ceil(work.buffers * BUFFER_HEADROOM),
      queries: work.queries.map(({ query, calls, buffers, nested }) => ({ query, calls, buffers, nested })),
    };
  }
  const file: BudgetFile = {
    note:
      'Student pages on the bench school: SQL statements (nested ones included) and shared-buffer pages, from pg_stat_statements on PostgreSQL. ' +
      'Written by BUDGETS_UPDATE=1 npx vitest run --project budgets (statements as measured, buffers +25%); a commit that raises one says why.',
    postgres: postgresMajor,
    pages,
  };
  writeFileSync(BUDGET_FILE, `${JSON.stringify(file, null, 2)}\n`);
}

/** The page's statements beside the budget's: new ones, then those that grew, then the rest. */
function report(page: StudentPage, work: PageWork, budget: Budget | undefined): string {
  const before = new Map((budget?.queries ?? []).map((q) => [`${q.nested}:${q.query}`, q]));
  const lines = work.queries.map((q) => {
    const b = before.get(`${q.nested}:${q.query}`);
    const mark = !b ? 'NEW ' : q.calls > b.calls || q.buffers > b.buffers * BUFFER_HEADROOM ? 'MORE' : '    ';
    const was = b ? ` (budget: ${b.calls} calls, ${b.buffers} buffers)` : '';
    return { mark, text: `${mark} ${String(q.calls).padStart(4)} calls ${String(q.buffers).padStart(6)} buffers ${q.nested ? '  nested' : 'top-level'}  ${q.query}${was}` };
  });
  const order = { 'NEW ': 0, MORE: 1, '    ': 2 } as Record<string, number>;
  lines.sort((a, b) => order[a.mark]! - order[b.mark]!);
  return [
    `page "${page}": ${work.statements} statements (budget ${budget?.statements ?? '—'}), ${work.buffers} buffers (budget ${budget?.buffers ?? '—'}), PostgreSQL ${postgresMajor}`,
    ...lines.map((l) => `  ${l.text}`),
  ].join('\n');
}

describe('student pages: SQL statements and buffers within budget (bench school, PostgreSQL)', () => {
  // Each page on lessons of its own, so no page's writes warm another's.
  const visits: Record<StudentPage, [number, number]> = {
    home: [0, 0],
    course: [0, 0],
    lesson: [10, 10],
    // Positions are saved many times per lesson: the second save of the lesson is measured.
    'save position': [20, 20],
    // A lesson is completed once: two lessons completed for the first time.
    'complete lesson': [30, 31],
    comment: [40, 40],
    rate: [50, 50],
  };

  it.each(PAGES)('%s', async (page) => {
    const [warm, measuredLesson] = visits[page];
    const work = await measure(page, { client, userId, lessonId: lessons[warm]!, round: 1 }, { client, userId, lessonId: lessons[measuredLesson]!, round: 2 });
    measured[page] = work;
    console.log(`${page}: ${work.statements} statements, ${work.buffers} buffers, ${work.execMs.toFixed(1)} ms executing (not checked)`);
    if (UPDATE) return;
    const budget = readBudgets().pages[page];
    const over = !budget || work.statements > budget.statements || work.buffers > budget.buffers;
    if (over) expect.fail(`over budget (tests/budgets/student-pages.json)\n${report(page, work, budget)}`);
  });
});

// Issue 12, RLS that scales: on the large school of the benchmarks (200 courses, 5,000 students,
// 100,000 progress rows), the SQL that the REST layer runs for the student's home, course and lesson
// pages and for the staff's enrollments list is captured and re-run under `explain (analyze)`. No
// policy may call an access helper with a per-row argument, and every helper set is computed a
// bounded number of times per statement (not once per row).
import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { inlineParams, settingsSql, type Sql } from '../../../local-supabase/db/engine.ts';
import { useBackend } from '../harness.ts';
import { BIG, PASSWORD, SCHOOL, SEED, STUDENT_EMAIL } from '../../../scripts/bench/large-school.ts';
import { fetchCatalog, fetchCourseDetail } from '../../../src/features/courses/api/queries.ts';
import { fetchLessonBundle } from '../../../src/features/lessons/api/queries.ts';
import { fetchEnrollments } from '../../../src/features/enrollments/api/queries.ts';

interface Statement {
  text: string;
  params?: unknown[];
}
/** The statements of each transaction the server ran: [0] sets role and claims, then the query. */
let captured: Statement[][] = [];
const backend = useBackend();
let student: SupabaseClient;
let staff: SupabaseClient;
let studentId: string;
let lessonId: string;

beforeAll(async () => {
  const { engine } = backend.server.ctx;
  await engine.exec(SEED);
  // A staff member of the large school, for the enrollments list (20,000 rows to filter).
  await engine.exec(`
    update public.profiles set must_change_password = false where school_id = '${SCHOOL}';
    insert into public.user_roles (user_id, school_id, role)
    select p.id, '${SCHOOL}', 'SCHOOL_ADMIN' from public.profiles p join auth.users u on u.id = p.id
    where u.email = 'bench.2@escola-bench.com.br';`);
  // Record what the server runs, statement by statement, per transaction.
  const transaction = engine.transaction.bind(engine);
  engine.transaction = <T>(fn: (tx: Sql) => Promise<T>) =>
    transaction((tx) => {
      const statements: Statement[] = [];
      captured.push(statements);
      return fn({
        query: (text, params) => (statements.push({ text, params }), tx.query(text, params)),
        exec: (script) => tx.exec(script),
      } as Sql);
    });
  // REST requests send their settings and statement as one script (Engine.runStatement).
  const runStatement = engine.runStatement.bind(engine);
  engine.runStatement = (settings, statement, decide) => {
    captured.push([{ text: settingsSql(settings) }, { text: inlineParams(statement) }]);
    return runStatement(settings, statement, decide);
  };
  student = await backend.signIn(STUDENT_EMAIL, PASSWORD);
  staff = await backend.signIn('bench.2@escola-bench.com.br', PASSWORD);
  studentId = (await student.auth.getUser()).data.user!.id;
  lessonId = (await fetchCourseDetail(student, { courseId: BIG, userId: studentId }))!.modules[5]!.lessons[3]!.id;
}, 240_000);

interface PlanNode {
  'Node Type': string;
  'Actual Loops': number;
  'Actual Rows': number;
  Output?: string[];
  Plans?: PlanNode[];
  [key: string]: unknown;
}

/** Runs `load` through the REST layer, then explains (analyze) every statement it ran as the caller. */
async function explainPage(load: () => Promise<unknown>): Promise<PlanNode[]> {
  captured = [];
  await load();
  const runs = captured.filter((s) => s.length >= 2);
  expect(runs.length).toBeGreaterThan(0);
  const plans: PlanNode[] = [];
  for (const [setCaller, ...statements] of runs) {
    for (const s of statements) {
      await backend.server.ctx.engine.transaction(async (tx) => {
        await tx.query(setCaller!.text, setCaller!.params);
        const r = await tx.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`explain (analyze, verbose, format json) ${s.text}`, s.params);
        plans.push(r.rows[0]!['QUERY PLAN'][0]!.Plan);
      });
    }
  }
  return plans;
}

function* nodes(plan: PlanNode): Generator<PlanNode> {
  yield plan;
  for (const child of plan.Plans ?? []) yield* nodes(child);
}

/** Every expression of a node (filters, conditions, outputs), as the plan prints them. */
function expressions(node: PlanNode): string[] {
  return Object.entries(node)
    .filter(([key, value]) => (key.endsWith('Filter') || key.endsWith('Cond') || key === 'Output') && value)
    .flatMap(([, value]) => (Array.isArray(value) ? value.map(String) : [String(value)]));
}

/** What the helpers cost in these plans: per-row calls found, and the most loops of a helper node. */
function helperUse(plans: PlanNode[]) {
  const perRow: string[] = [];
  let maxLoops = 0;
  let helperNodes = 0;
  for (const plan of plans) {
    for (const node of nodes(plan)) {
      for (const expr of expressions(node)) {
        // private.fn(<argument>) in a filter: evaluated once per row it filters.
        for (const m of expr.matchAll(/private\.(\w+)\(([^)]*)\)/g)) if (m[2]!.trim()) perRow.push(`${node['Node Type']}: ${m[0]}`);
      }
      if (node.Output?.some((o) => /^private\.\w+\(\)$/.test(o))) {
        helperNodes += 1;
        maxLoops = Math.max(maxLoops, node['Actual Loops']);
      }
    }
  }
  return { perRow, maxLoops, helperNodes };
}

describe('RLS at scale (large school)', () => {
  it('the student home page: helpers once per statement, never per course or lesson row', async () => {
    const plans = await explainPage(() => fetchCatalog(student, { schoolId: SCHOOL }));
    const use = helperUse(plans);
    expect(use.perRow).toEqual([]);
    expect(use.helperNodes).toBeGreaterThan(0); // the policies are really in these plans
    expect(use.maxLoops).toBe(1);
  });

  it('the course page (20 modules × 10 lessons) and the lesson page', async () => {
    for (const load of [() => fetchCourseDetail(student, { courseId: BIG, userId: studentId }), () => fetchLessonBundle(student, { lessonId, userId: studentId })]) {
      const use = helperUse(await explainPage(load));
      expect(use.perRow).toEqual([]);
      expect(use.helperNodes).toBeGreaterThan(0);
      expect(use.maxLoops).toBe(1);
    }
  });

  it('the staff enrollments list over 5,000 enrollments', async () => {
    const plans = await explainPage(() => fetchEnrollments(staff, SCHOOL, { courseId: '', status: '' }, 0));
    const use = helperUse(plans);
    expect(use.perRow).toEqual([]);
    expect(use.maxLoops).toBe(1);
  });
});

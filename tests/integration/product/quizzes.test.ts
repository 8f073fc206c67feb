// Avaliações (issue 23), as the database enforces them. The heart: a student finds no trace of the
// correct options in anything the API answers them (every table they may read, every function they may
// call) before their attempt is graded, and afterwards exactly what the quiz's setting allows. Then the
// rules: grading, attempts, the wait, the time limit (both late policies), 20 concurrent submissions,
// lesson completion and certificates, drip release, and what staff of another school or a student
// trying the staff side get. Each test makes its own course and students with the service role.
import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Engine } from '../../../local-supabase/db/engine.ts';
import { useBackend } from '../harness.ts';
import { EMAIL, SCHOOL } from '../rls/seed.ts';

const PASSWORD = 'senha-quiz-123';

const backend = useBackend();
const service = backend.service();
let db: Engine;

async function must<T>(p: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(JSON.stringify(error));
  return data;
}
const tag = () => `${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;

type Option = { id: string; text: string; correct: boolean };
type Question = { kind: 'single' | 'multiple' | 'true_false'; scoring?: 'all_or_nothing' | 'partial'; statement: string; options: Option[]; explanation?: string };

/** Five questions; every correct option's text holds CERTA and every explanation EXPLICA, so a leak is
 * a substring; option ids are the test's own, so a leaked id is found too. */
function fiveQuestions(t: string): Question[] {
  const o = (q: number, n: number, correct: boolean): Option => ({ id: `q${q}o${n}-${t}`, text: `${correct ? 'CERTA' : 'Opção'} ${q}.${n} ${t}`, correct });
  return [
    { kind: 'single', statement: `Pergunta 1 ${t}`, options: [o(1, 1, false), o(1, 2, true), o(1, 3, false)], explanation: `EXPLICA 1 ${t}` },
    { kind: 'single', statement: `Pergunta 2 ${t}`, options: [o(2, 1, true), o(2, 2, false)], explanation: `EXPLICA 2 ${t}` },
    { kind: 'multiple', scoring: 'all_or_nothing', statement: `Pergunta 3 ${t}`, options: [o(3, 1, true), o(3, 2, true), o(3, 3, false)] },
    { kind: 'multiple', scoring: 'partial', statement: `Pergunta 4 ${t}`, options: [o(4, 1, true), o(4, 2, true), o(4, 3, false), o(4, 4, false)] },
    { kind: 'true_false', statement: `Pergunta 5 ${t}`, options: [{ id: `q5v-${t}`, text: 'Verdadeiro', correct: false }, { id: `q5f-${t}`, text: 'Falso', correct: true }], explanation: `EXPLICA 5 ${t}` },
  ];
}
const correctIds = (qs: Question[]) => qs.flatMap((q) => q.options.filter((o) => o.correct).map((o) => o.id));

/** A PUBLISHED course of the demo school: module 1 (open) with lessons 'Aula' and 'Prova' (the quiz),
 * and module 2 released 7 days after enrollment with 'Prova gotejada' (a second quiz). */
async function quizCourse(settings: Record<string, unknown> = {}, questions?: Question[]) {
  const t = tag();
  const course = (await must(service.from('courses').insert({ school_id: SCHOOL.demo, title: `Curso Avaliado ${t}`, slug: `quiz-${t}`, status: 'PUBLISHED' }).select('id').single())) as { id: string };
  const m1 = (await must(service.from('modules').insert({ course_id: course.id, title: 'Módulo 1', order_index: 0 }).select('id').single())) as { id: string };
  const m2 = (await must(service.from('modules').insert({ course_id: course.id, title: 'Módulo 2', order_index: 1, release_mode: 'AFTER_ENROLLMENT', release_after_days: 7 }).select('id').single())) as { id: string };
  const lesson = async (module_id: string, title: string, order_index: number) =>
    ((await must(service.from('lessons').insert({ module_id, course_id: course.id, title, order_index, duration_sec: 600 }).select('id').single())) as { id: string }).id;
  const plain = await lesson(m1.id, 'Aula', 0);
  const exam = await lesson(m1.id, 'Prova', 1);
  const dripped = await lesson(m2.id, 'Prova gotejada', 0);
  const qs = questions ?? fiveQuestions(t);
  const quiz = await makeQuiz(exam, qs, settings);
  const drippedQuiz = await makeQuiz(dripped, fiveQuestions(`${t}-d`), {});
  return { id: course.id, plain, exam, dripped, quiz, drippedQuiz, questions: qs, t };
}

/** A quiz with these questions, published by the school's admin (publish_quiz as staff). */
async function makeQuiz(lessonId: string, qs: Question[], settings: Record<string, unknown>) {
  const quiz = (await must(service.from('quizzes').insert({ lesson_id: lessonId, ...settings }).select('id').single())) as { id: string };
  await must(service.from('quiz_questions').insert(qs.map((q, position) => ({ quiz_id: quiz.id, position, scoring: 'all_or_nothing', explanation: null, ...q }))).select('id'));
  const admin = await adminClient();
  await must(admin.rpc('publish_quiz', { p_quiz_id: quiz.id }));
  return quiz.id;
}

let admin: SupabaseClient | null = null;
async function adminClient() {
  admin ??= await backend.signIn(EMAIL.adminDemo);
  return admin;
}

/** A new student of the demo school (signed in), enrolled ACTIVE in the course. */
async function student(courseId: string, enrolledDaysAgo = 0) {
  const email = `quiz.${tag()}@exemplo.com.br`;
  const created = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { name: 'Aluno da Prova', school_id: SCHOOL.demo } });
  if (created.error) throw created.error;
  const id = created.data.user!.id;
  const created_at = new Date(Date.now() - enrolledDaysAgo * 24 * 3600_000).toISOString();
  await must(service.from('enrollments').insert({ user_id: id, course_id: courseId, status: 'ACTIVE', created_at }).select('id'));
  return { id, client: await backend.signIn(email, PASSWORD) };
}

type State = {
  quiz_id: string;
  state: string;
  attempts_used: number;
  attempts_left: number | null;
  next_attempt_at: string | null;
  notice: string | null;
  open_attempt: null | { id: string; deadline_at: string | null; questions: { id: string; options: { id: string; text: string }[] }[] };
  attempts: { id: string; number: number; started_at: string; status: string; score: number; passed: boolean; review: null | { question_id: string; is_correct: boolean; explanation: string | null; options: Option[] }[] }[];
};

const start = async (c: SupabaseClient, quizId: string) => (await must(c.rpc('start_quiz_attempt', { p_quiz_id: quizId }))) as State;
const submit = async (c: SupabaseClient, attemptId: string, answers: Record<string, string[]>) =>
  (await must(c.rpc('submit_quiz_attempt', { p_attempt_id: attemptId, p_answers: answers }))) as State;

/** Answers from the test's own key: `right` questions answered correctly (by index), the rest wrongly. */
function answersFor(qs: Question[], questionIds: string[], right: number[]): Record<string, string[]> {
  return Object.fromEntries(
    qs.map((q, i) => [questionIds[i]!, right.includes(i) ? q.options.filter((o) => o.correct).map((o) => o.id) : [q.options.find((o) => !o.correct)!.id]]),
  );
}
/** The draft question ids in position order (the ids the version and the attempts use). */
async function questionIds(quizId: string) {
  const rows = (await must(service.from('quiz_questions').select('id').eq('quiz_id', quizId).order('position'))) as { id: string }[];
  return rows.map((r) => r.id);
}
/** Option ids as the database stored them = the test's ids (the inserted jsonb). */
async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []) {
  return (await db.query<T>(text, params)).rows;
}

/** Everything a student can read or call, as one string: every table of public they hold SELECT on,
 * and every public function they may execute, called with the ids of this quiz. */
async function everythingTheStudentSees(c: SupabaseClient, ids: Record<string, string | null>, skip: string[] = []) {
  const tables = await sql<{ table_name: string }>(
    `select distinct table_name from information_schema.role_table_grants where grantee = 'authenticated' and table_schema = 'public' and privilege_type = 'SELECT'
     union select distinct table_name from information_schema.column_privileges where grantee = 'authenticated' and table_schema = 'public' and privilege_type = 'SELECT'`,
  );
  const out: string[] = [];
  for (const { table_name } of tables) {
    const cols = await sql<{ column_name: string }>(
      `select column_name from information_schema.column_privileges where grantee = 'authenticated' and table_schema = 'public' and table_name = $1 and privilege_type = 'SELECT'`,
      [table_name],
    );
    const { data, error } = await c.from(table_name).select(cols.map((x) => x.column_name).join(',') || '*');
    out.push(`${table_name}: ${JSON.stringify(data)} ${JSON.stringify(error)}`);
  }
  const fns = await sql<{ proname: string; args: string[] | null }>(
    `select p.proname, p.proargnames as args from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and has_function_privilege('authenticated', p.oid, 'execute') and p.prokind = 'f'`,
  );
  for (const f of fns.filter((x) => !skip.includes(x.proname))) {
    const args = Object.fromEntries(
      (f.args ?? []).filter((a) => a.startsWith('p_')).map((a) => [a, ids[a] ?? null]),
    );
    const { data, error } = await c.rpc(f.proname, args);
    out.push(`${f.proname}: ${JSON.stringify(data)} ${JSON.stringify(error)}`);
  }
  return { text: out.join('\n'), tables: tables.length, functions: fns.length };
}

beforeAll(async () => {
  db = backend.server.ctx.engine;
});

describe('the correct options stay in the database until the attempt is graded', () => {
  it('before any attempt, during one, and after grading with show_answers = never', async () => {
    const c = await quizCourse({ show_answers: 'never', max_attempts: 3 });
    const s = await student(c.id);
    const leaks = (text: string) => {
      const found = [...correctIds(c.questions), 'CERTA', 'EXPLICA', '"correct"', 'is_correct'].filter((m) => text.includes(m));
      return found;
    };
    const ids = { p_lesson_id: c.exam, p_quiz_id: c.quiz, p_course_id: c.id, p_school_id: SCHOOL.demo, p_question_id: (await questionIds(c.quiz))[0]! };

    // Before the attempt starts, nothing names any option, right or wrong.
    const before = await everythingTheStudentSees(s.client, ids, ['start_quiz_attempt']);
    expect(before.tables).toBeGreaterThan(15);
    expect(before.functions).toBeGreaterThan(10);
    expect(leaks(before.text)).toEqual([]);
    expect(before.text).not.toMatch(/Opção \d/);

    const started = await start(s.client, c.quiz);
    const attemptId = started.open_attempt!.id;
    // The attempt shows every option's text, but nothing says which is right: starting (again) is
    // among the calls, and answers the open attempt.
    // (Not submitting: that would grade it; the submission's own answer is checked below.)
    const during = await everythingTheStudentSees(s.client, { ...ids, p_attempt_id: attemptId }, ['submit_quiz_attempt']);
    expect(during.text).toContain(`"id":"${attemptId}"`);
    expect(during.text).not.toMatch(/"correct"|is_correct|EXPLICA/);
    expect(JSON.stringify(started)).not.toMatch(/"correct"|is_correct|EXPLICA/);

    const graded = await submit(s.client, attemptId, answersFor(c.questions, await questionIds(c.quiz), [0, 1]));
    expect(JSON.stringify(graded)).not.toMatch(/"correct"|is_correct|EXPLICA/);
    // (Not starting another attempt: its answer is the state quiz_for_student gives, with a new attempt.)
    const after = await everythingTheStudentSees(s.client, { ...ids, p_attempt_id: attemptId }, ['start_quiz_attempt']);
    expect(after.text).not.toMatch(/"correct"|is_correct|EXPLICA/);
    // The student's own attempt: score and result, nothing per question.
    const mine = (await must(s.client.from('quiz_attempts').select('*'))) as { score: number; passed: boolean }[];
    expect(mine).toEqual([expect.objectContaining({ score: 40, passed: false })]);
    for (const t of ['quiz_questions', 'quiz_versions', 'quiz_attempt_answers']) {
      expect(await must(s.client.from(t).select('*')), t).toEqual([]);
    }
  });

  it('after_passing: nothing per question after a failed attempt, the review after the pass', async () => {
    const c = await quizCourse({ show_answers: 'after_passing', pass_mark: 60 });
    const s = await student(c.id);
    const qids = await questionIds(c.quiz);
    const failed = await submit(s.client, (await start(s.client, c.quiz)).open_attempt!.id, answersFor(c.questions, qids, [0]));
    expect(failed.attempts[0]).toMatchObject({ score: 20, passed: false, review: null });
    expect(JSON.stringify(failed)).not.toMatch(/"correct"|EXPLICA/);

    const passed = await submit(s.client, (await start(s.client, c.quiz)).open_attempt!.id, answersFor(c.questions, qids, [0, 1, 2]));
    expect(passed.state).toBe('passed');
    expect(passed.attempts[0]).toMatchObject({ number: 2, score: 60, passed: true });
    const review = passed.attempts[0]!.review!;
    expect(review.map((r) => r.is_correct)).toEqual([true, true, true, false, false]);
    expect(review[0]!.explanation).toBe(`EXPLICA 1 ${c.t}`);
    expect(review[0]!.options.filter((o) => o.correct).map((o) => o.id)).toEqual([c.questions[0]!.options[1]!.id]);
  });

  it('after_each_attempt: the review right after a failed attempt', async () => {
    const c = await quizCourse({ show_answers: 'after_each_attempt' });
    const s = await student(c.id);
    const r = await submit(s.client, (await start(s.client, c.quiz)).open_attempt!.id, answersFor(c.questions, await questionIds(c.quiz), [4]));
    expect(r.attempts[0]!.review!.map((q) => q.is_correct)).toEqual([false, false, false, false, true]);
    expect(r.attempts[0]!.review![4]!.explanation).toBe(`EXPLICA 5 ${c.t}`);
  });
});

describe('grading', () => {
  it('all or nothing, partial credit (right minus wrong, never below 0), and true/false', async () => {
    const c = await quizCourse({ max_attempts: null });
    const s = await student(c.id);
    const [q1, q2, q3, q4, q5] = await questionIds(c.quiz);
    const o = (q: number, n: number) => c.questions[q]!.options[n]!.id;
    const r = await submit(s.client, (await start(s.client, c.quiz)).open_attempt!.id, {
      [q1!]: [o(0, 1)], // right: 1
      [q2!]: [], // blank: 0
      [q3!]: [o(2, 0)], // one of two, all or nothing: 0
      [q4!]: [o(3, 0), o(3, 1), o(3, 2)], // partial: (2 - 1) / 2 = 0.5
      [q5!]: [o(4, 1)], // Falso: right: 1
    });
    // (1 + 0 + 0 + 0.5 + 1) / 5 = 50%
    expect(r.attempts[0]).toMatchObject({ score: 50, passed: false });
    const graded = await sql<{ question_id: string; earned: string }>(
      `select question_id::text, earned::text from public.quiz_attempt_answers where attempt_id = $1`, [r.attempts[0]!.id]);
    expect(Object.fromEntries(graded.map((g) => [g.question_id, Number(g.earned)]))).toEqual({ [q1!]: 1, [q2!]: 0, [q3!]: 0, [q4!]: 0.5, [q5!]: 1 });

    // Partial credit never goes below zero; options of another question are refused, not graded.
    const again = await start(s.client, c.quiz);
    await expect(submit(s.client, again.open_attempt!.id, { [q1!]: [o(1, 0)] })).rejects.toThrow('Respostas inválidas.');
    const low = await submit(s.client, again.open_attempt!.id, { [q4!]: [o(3, 0), o(3, 2), o(3, 3)] });
    expect(low.attempts[0]).toMatchObject({ number: 2, score: 0 });
  });

  it('editing and republishing keeps earlier attempts as graded (versions)', async () => {
    const c = await quizCourse({ show_answers: 'after_each_attempt' });
    const s = await student(c.id);
    const qids = await questionIds(c.quiz);
    const first = await submit(s.client, (await start(s.client, c.quiz)).open_attempt!.id, answersFor(c.questions, qids, [0, 1]));
    expect(first.attempts[0]!.score).toBe(40);
    // Staff make option 1 of question 1 the right one, and delete question 5, then publish again.
    const flipped = c.questions[0]!.options.map((o, i) => ({ ...o, correct: i === 0 }));
    const admin = await adminClient();
    await must(admin.from('quiz_questions').update({ options: flipped }).eq('id', qids[0]!).select('id'));
    await must(admin.from('quiz_questions').delete().eq('id', qids[4]!).select('id'));
    await must(admin.rpc('publish_quiz', { p_quiz_id: c.quiz }));
    const later = (await must(s.client.rpc('quiz_for_student', { p_lesson_id: c.exam }))) as State;
    expect(later.attempts[0]).toMatchObject({ score: 40, passed: false });
    expect(later.attempts[0]!.review!.map((r) => r.is_correct)).toEqual([true, true, false, false, false]);
    // The next attempt takes the new version: four questions.
    const next = await start(s.client, c.quiz);
    expect(next.open_attempt!.questions.map((q) => q.id)).toEqual(qids.slice(0, 4));
  });
});

describe('attempts, the wait and the time limit', () => {
  it('2 attempts 1 hour apart: the wait is enforced, then the limit', async () => {
    const c = await quizCourse({ max_attempts: 2, wait_hours: 1, pass_mark: 60 });
    const s = await student(c.id);
    const qids = await questionIds(c.quiz);
    const failed = await submit(s.client, (await start(s.client, c.quiz)).open_attempt!.id, answersFor(c.questions, qids, []));
    expect(failed).toMatchObject({ state: 'failed', attempts_used: 1, attempts_left: 1 });
    const opensAt = new Date(failed.next_attempt_at!);
    expect(opensAt.getTime() - Date.parse(failed.attempts[0]!.started_at)).toBeGreaterThan(59 * 60_000);
    const when = new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', dateStyle: 'short', timeStyle: 'short' }).format(opensAt).replace(', ', ' às ');
    await expect(start(s.client, c.quiz)).rejects.toThrow(`A próxima tentativa abre em ${when}.`);

    // The clock moves an hour on (the attempt's times move an hour back).
    await sql(`update public.quiz_attempts set started_at = started_at - interval '61 minutes', submitted_at = submitted_at - interval '61 minutes' where user_id = $1`, [s.id]);
    await submit(s.client, (await start(s.client, c.quiz)).open_attempt!.id, answersFor(c.questions, qids, [0]));
    await sql(`update public.quiz_attempts set started_at = started_at - interval '2 hours', submitted_at = submitted_at - interval '2 hours' where user_id = $1`, [s.id]);
    await expect(start(s.client, c.quiz)).rejects.toThrow('Você já usou todas as tentativas desta avaliação.');
    expect(await sql(`select count(*)::int as n from public.quiz_attempts where user_id = $1`, [s.id])).toEqual([{ n: 2 }]);
  });

  it('a late submission grades the answers saved before the deadline (grade_at_deadline)', async () => {
    const c = await quizCourse({ time_limit_minutes: 10, late_policy: 'grade_at_deadline', show_answers: 'never' });
    const s = await student(c.id);
    const qids = await questionIds(c.quiz);
    const a = (await start(s.client, c.quiz)).open_attempt!;
    expect(Date.parse(a.deadline_at!) - Date.now()).toBeGreaterThan(9 * 60_000);
    await must(s.client.rpc('save_quiz_answers', { p_attempt_id: a.id, p_answers: answersFor(c.questions, qids, [0]) }));
    await sql(`update public.quiz_attempts set started_at = started_at - interval '11 minutes', deadline_at = deadline_at - interval '11 minutes' where id = $1`, [a.id]);
    await expect(must(s.client.rpc('save_quiz_answers', { p_attempt_id: a.id, p_answers: {} }))).rejects.toThrow('O tempo desta avaliação acabou.');
    // All right, but late: what counts is what was saved in time (1 of 5).
    const r = await submit(s.client, a.id, answersFor(c.questions, qids, [0, 1, 2, 3, 4]));
    expect(r).toMatchObject({ notice: 'late_graded', state: 'failed' });
    expect(r.attempts[0]).toMatchObject({ status: 'graded', score: 20 });
    const [row] = await sql<{ on_deadline: boolean }>(`select submitted_at = deadline_at as on_deadline from public.quiz_attempts where id = $1`, [a.id]);
    expect(row!.on_deadline).toBe(true);
  });

  it('a late submission is refused (refuse): the attempt ends with 0, also when the student never comes back', async () => {
    const c = await quizCourse({ time_limit_minutes: 5, late_policy: 'refuse', max_attempts: 3 });
    const s = await student(c.id);
    const qids = await questionIds(c.quiz);
    const a = (await start(s.client, c.quiz)).open_attempt!;
    await sql(`update public.quiz_attempts set deadline_at = now() - interval '1 minute' where id = $1`, [a.id]);
    const r = await submit(s.client, a.id, answersFor(c.questions, qids, [0, 1, 2, 3, 4]));
    expect(r).toMatchObject({ notice: 'late_refused', state: 'failed' });
    expect(r.attempts[0]).toMatchObject({ status: 'expired', score: 0, passed: false });
    // An attempt left open past its time ends when the quiz is next opened.
    const b = (await start(s.client, c.quiz)).open_attempt!;
    await sql(`update public.quiz_attempts set deadline_at = now() - interval '1 minute' where id = $1`, [b.id]);
    const opened = (await must(s.client.rpc('quiz_for_student', { p_lesson_id: c.exam }))) as State;
    expect(opened.open_attempt).toBeNull();
    expect(opened.attempts.map((x) => x.status)).toEqual(['expired', 'expired']);
  });

  it('20 concurrent submissions of the last allowed attempt grade it once; 20 concurrent starts open one attempt', async () => {
    const c = await quizCourse({ max_attempts: 2, wait_hours: 0 });
    const s = await student(c.id);
    const qids = await questionIds(c.quiz);
    await submit(s.client, (await start(s.client, c.quiz)).open_attempt!.id, answersFor(c.questions, qids, []));

    const starts = await Promise.all(Array.from({ length: 20 }, () => s.client.rpc('start_quiz_attempt', { p_quiz_id: c.quiz })));
    expect(starts.map((x) => x.error)).toEqual(Array(20).fill(null));
    const opened = new Set(starts.map((x) => (x.data as State).open_attempt!.id));
    expect(opened.size).toBe(1);
    const [last] = [...opened];

    const submissions = await Promise.all(
      Array.from({ length: 20 }, (_, i) => s.client.rpc('submit_quiz_attempt', { p_attempt_id: last, p_answers: answersFor(c.questions, qids, i % 2 ? [0] : []) })),
    );
    expect(submissions.map((x) => x.error)).toEqual(Array(20).fill(null));
    const rows = await sql<{ number: number; status: string; graded: number }>(
      `select a.number, a.status, (select count(*)::int from public.quiz_attempt_answers g where g.attempt_id = a.id) as graded
         from public.quiz_attempts a where a.user_id = $1 order by a.number`, [s.id]);
    expect(rows).toEqual([{ number: 1, status: 'graded', graded: 5 }, { number: 2, status: 'graded', graded: 5 }]);
    // Every answer names the same result: the one grading that happened (20% or 0%, whichever came
    // first; both fail, so the next start is refused for the attempts, not for a pass).
    const scores = new Set(submissions.map((x) => (x.data as State).attempts[0]!.score));
    expect(scores.size).toBe(1);
    const more = await Promise.all(Array.from({ length: 20 }, () => s.client.rpc('start_quiz_attempt', { p_quiz_id: c.quiz })));
    expect(more.map((x) => x.error?.message)).toEqual(Array(20).fill('Você já usou todas as tentativas desta avaliação.'));
    expect(await sql(`select count(*)::int as n from public.quiz_attempts where user_id = $1`, [s.id])).toEqual([{ n: 2 }]);
  });
});

describe('the lesson, the course and the certificate follow the quiz', () => {
  it('the quiz lesson completes only with the quiz passed; the certificate only then', async () => {
    const c = await quizCourse({ pass_mark: 60, show_answers: 'never' });
    // Enrolled 8 days ago: the dripped module is open too.
    const s = await student(c.id, 8);
    const qids = await questionIds(c.quiz);
    const completed = async () =>
      ((await must(service.from('progress').select('lesson_id').eq('user_id', s.id).not('completed_at', 'is', null))) as { lesson_id: string }[]).map((r) => r.lesson_id).sort();
    // The student marks the lessons complete: the quiz lesson's completion is dropped.
    for (const lesson_id of [c.plain, c.exam]) {
      await must(s.client.from('progress').upsert({ user_id: s.id, lesson_id, completed_at: new Date().toISOString() }, { onConflict: 'user_id,lesson_id' }).select('lesson_id'));
    }
    expect(await completed()).toEqual([c.plain]);
    // Pass the dripped module's quiz, so only the first quiz stands between the student and the certificate.
    const dq = await questionIds(c.drippedQuiz);
    const dAnswers = Object.fromEntries(dq.map((id, i) => [id, fiveQuestions(`${c.t}-d`)[i]!.options.filter((o) => o.correct).map((o) => o.id)]));
    expect((await submit(s.client, (await start(s.client, c.drippedQuiz)).open_attempt!.id, dAnswers)).state).toBe('passed');

    await expect(must(s.client.rpc('issue_certificate', { p_course_id: c.id }))).rejects.toThrow('Conclua todas as aulas do curso para emitir o certificado.');
    await submit(s.client, (await start(s.client, c.quiz)).open_attempt!.id, answersFor(c.questions, qids, [0]));
    expect(await completed()).toEqual([c.plain, c.dripped].sort());
    await expect(must(s.client.rpc('issue_certificate', { p_course_id: c.id }))).rejects.toThrow('Conclua todas as aulas');

    const passed = await submit(s.client, (await start(s.client, c.quiz)).open_attempt!.id, answersFor(c.questions, qids, [0, 1, 2]));
    expect(passed.state).toBe('passed');
    expect(await completed()).toEqual([c.plain, c.exam, c.dripped].sort());
    const states = (await must(s.client.rpc('my_quiz_states', { p_course_id: c.id }))) as { lesson_id: string; state: string }[];
    expect(Object.fromEntries(states.map((x) => [x.lesson_id, x.state]))).toEqual({ [c.exam]: 'passed', [c.dripped]: 'passed' });
    await expect(must(s.client.rpc('issue_certificate', { p_course_id: c.id }))).resolves.toMatchObject({ user_id: s.id });
    await expect(start(s.client, c.quiz)).rejects.toThrow('Você já foi aprovado nesta avaliação.');
  });

  it('publishing a quiz re-opens its lesson for students who completed it before; the certificate names the quizzes', async () => {
    const c = await quizCourse();
    const lesson = (await must(service.from('lessons').insert({ module_id: (await must(service.from('lessons').select('module_id').eq('id', c.plain).single()) as { module_id: string }).module_id, course_id: c.id, title: 'Aula que ganhará prova', order_index: 2 }).select('id').single())) as { id: string };
    const s = await student(c.id);
    await must(s.client.from('progress').upsert({ user_id: s.id, lesson_id: lesson.id, completed_at: new Date().toISOString() }, { onConflict: 'user_id,lesson_id' }).select('lesson_id'));
    // The student cannot un-complete it, and neither can the service role over the API.
    await must(s.client.from('progress').update({ completed_at: null }).eq('lesson_id', lesson.id).select('lesson_id'));
    expect(await sql(`select completed_at is not null as done from public.progress where lesson_id = $1`, [lesson.id])).toEqual([{ done: true }]);
    await makeQuiz(lesson.id, fiveQuestions(`${c.t}-new`), {});
    expect(await sql(`select completed_at is not null as done from public.progress where lesson_id = $1`, [lesson.id])).toEqual([{ done: false }]);
  });

  it('drip release and enrollment rules apply to quizzes as to lessons', async () => {
    const c = await quizCourse();
    const s = await student(c.id);
    expect(await must(s.client.rpc('quiz_for_student', { p_lesson_id: c.dripped }))).toBeNull();
    await expect(start(s.client, c.drippedQuiz)).rejects.toThrow('Avaliação não encontrada.');
    await sql(`update public.enrollments set status = 'PAUSED' where user_id = $1`, [s.id]);
    expect(await must(s.client.rpc('quiz_for_student', { p_lesson_id: c.exam }))).toBeNull();
    await expect(start(s.client, c.quiz)).rejects.toThrow('Avaliação não encontrada.');
    expect(await sql(`select count(*)::int as n from public.quiz_attempts where user_id = $1`, [s.id])).toEqual([{ n: 0 }]);
    // A draft (unpublished) quiz is invisible: no row, no state.
    const admin = await adminClient();
    await sql(`update public.enrollments set status = 'ACTIVE' where user_id = $1`, [s.id]);
    await must(admin.rpc('unpublish_quiz', { p_quiz_id: c.quiz }));
    expect(await must(s.client.rpc('quiz_for_student', { p_lesson_id: c.exam }))).toBeNull();
    expect(await must(s.client.from('quizzes').select('id').eq('id', c.quiz))).toEqual([]);
  });
});

describe('attackers', () => {
  it('a student cannot write attempts or grading, nor read another student’s attempts', async () => {
    const c = await quizCourse({ show_answers: 'never' });
    const a = await student(c.id);
    const b = await student(c.id);
    const qids = await questionIds(c.quiz);
    const attempt = (await start(a.client, c.quiz)).open_attempt!;
    // Forge a passed attempt, rewrite the open one, insert grading.
    const forged = await b.client.from('quiz_attempts').insert({ quiz_id: c.quiz, user_id: b.id, number: 1, layout: [], status: 'graded', score: 100, passed: true, pass_mark: 1, submitted_at: new Date().toISOString() });
    expect(forged.error?.code).toBe('42501');
    await a.client.from('quiz_attempts').update({ score: 100 }).eq('id', attempt.id);
    const forgedAnswer = await a.client.from('quiz_attempt_answers').insert({ attempt_id: attempt.id, question_id: qids[0], course_id: c.id, earned: 1, is_correct: true });
    expect(forgedAnswer.error?.code).toBe('42501');
    expect(await sql(`select status, score from public.quiz_attempts where id = $1`, [attempt.id])).toEqual([{ status: 'open', score: null }]);
    // B neither reads nor submits nor saves A's attempt.
    expect(await must(b.client.from('quiz_attempts').select('id').eq('id', attempt.id))).toEqual([]);
    await expect(submit(b.client, attempt.id, {})).rejects.toThrow('Avaliação não encontrada.');
    await expect(must(b.client.rpc('save_quiz_answers', { p_attempt_id: attempt.id, p_answers: {} }))).rejects.toThrow('Avaliação não encontrada.');
    expect(await sql(`select status from public.quiz_attempts where id = $1`, [attempt.id])).toEqual([{ status: 'open' }]);
  });

  it('answers are bounded by the attempt’s questions: 100,000 copies of an option, repeats and two options for one choice are refused, nothing oversize is stored', async () => {
    const c = await quizCourse({ max_attempts: null });
    const s = await student(c.id);
    const [q1, q2, q3, q4, q5] = await questionIds(c.quiz);
    const o = (q: number, n: number) => c.questions[q]!.options[n]!.id;
    const attempt = (await start(s.client, c.quiz)).open_attempt!;
    const stored = async () =>
      (await sql<{ bytes: number; status: string; answers: unknown }>(`select octet_length(answers::text) as bytes, status, answers from public.quiz_attempts where id = $1`, [attempt.id]))[0]!;
    // What the student saved before: every refusal below leaves it as it was.
    const saved = { [q1!]: [o(0, 1)] };
    await must(s.client.rpc('save_quiz_answers', { p_attempt_id: attempt.id, p_answers: saved }));

    // The attack of issue 37: one option id 100,000 times (3 MB), saved and submitted.
    const bomb = { [q4!]: Array.from({ length: 100_000 }, () => o(3, 0)) };
    for (const rpc of ['save_quiz_answers', 'submit_quiz_attempt']) {
      const { error } = await s.client.rpc(rpc, { p_attempt_id: attempt.id, p_answers: bomb });
      expect(error?.message, rpc).toBe('As respostas enviadas são grandes demais para esta avaliação.');
    }
    // Small but not a shape the question allows: a repeated option, two options for a single choice
    // or a true/false, an option of another question, a question of no one.
    for (const answers of [
      { [q3!]: [o(2, 0), o(2, 0)] },
      { [q1!]: [o(0, 0), o(0, 1)] },
      { [q5!]: [o(4, 0), o(4, 1)] },
      { [q2!]: [o(0, 0)] },
      { [crypto.randomUUID()]: [] },
    ]) {
      for (const rpc of ['save_quiz_answers', 'submit_quiz_attempt']) {
        const { error } = await s.client.rpc(rpc, { p_attempt_id: attempt.id, p_answers: answers });
        expect(error?.message, `${rpc} ${JSON.stringify(answers)}`).toBe('Respostas inválidas.');
      }
    }
    const after = await stored();
    expect(after).toMatchObject({ status: 'open', answers: saved });
    expect(after.bytes).toBeLessThan(200);
    // The table holds no more than the layout, whatever writes it.
    await expect(sql(`update public.quiz_attempts set answers = $2::jsonb where id = $1`, [attempt.id, JSON.stringify(bomb)])).rejects.toThrow(/quiz_attempts_answers_size/);

    // The player's own payload (docs/quizzes.md; a blank multiple choice is []) saves and grades as before.
    const answers = { [q1!]: [o(0, 1)], [q2!]: [], [q3!]: [o(2, 0)], [q4!]: [o(3, 0), o(3, 1), o(3, 2)], [q5!]: [o(4, 1)] };
    await must(s.client.rpc('save_quiz_answers', { p_attempt_id: attempt.id, p_answers: answers }));
    expect((await stored()).answers).toEqual(answers);
    const graded = await submit(s.client, attempt.id, answers);
    expect(graded.attempts[0]).toMatchObject({ id: attempt.id, score: 50, passed: false });
    expect(await stored()).toMatchObject({ status: 'graded', answers });
  });

  it('a student cannot build, publish or read the results of a quiz; staff of another school neither', async () => {
    const c = await quizCourse();
    const s = await student(c.id);
    const rival = await backend.signIn(EMAIL.adminRival);
    for (const client of [s.client, rival]) {
      const ins = await client.from('quiz_questions').insert({ quiz_id: c.quiz, statement: 'Invasora', options: [{ id: 'a', text: 'a', correct: true }, { id: 'b', text: 'b', correct: false }] });
      expect(ins.error).not.toBeNull();
      await client.from('quizzes').update({ pass_mark: 1, max_attempts: 10 }).eq('id', c.quiz);
      await client.from('quiz_questions').delete().eq('quiz_id', c.quiz);
      await expect(must(client.rpc('publish_quiz', { p_quiz_id: c.quiz }))).rejects.toThrow('Avaliação não encontrada.');
      await expect(must(client.rpc('unpublish_quiz', { p_quiz_id: c.quiz }))).rejects.toThrow('Avaliação não encontrada.');
      await expect(must(client.rpc('quiz_results', { p_quiz_id: c.quiz }))).rejects.toThrow('Avaliação não encontrada.');
      await expect(must(client.rpc('duplicate_quiz_question', { p_question_id: (await questionIds(c.quiz))[0] }))).rejects.toThrow('Avaliação não encontrada.');
      expect(await must(client.from('quiz_versions').select('id').eq('quiz_id', c.quiz))).toEqual([]);
    }
    expect(await sql(`select pass_mark, max_attempts, published_version_id is not null as published, (select count(*)::int from public.quiz_questions where quiz_id = $1) as questions
                        from public.quizzes where id = $1`, [c.quiz])).toEqual([{ pass_mark: 70, max_attempts: null, published: true, questions: 5 }]);
    // An anonymous visitor gets nothing at all.
    const anon = backend.anon();
    expect((await anon.rpc('quiz_for_student', { p_lesson_id: c.exam })).error).not.toBeNull();
    expect((await anon.from('quizzes').select('id')).error).not.toBeNull();
  });

  it('publishing refuses a quiz without questions or with a question without a correct option', async () => {
    const c = await quizCourse();
    const admin = await adminClient();
    const lesson = (await must(service.from('lessons').insert({ module_id: (await must(service.from('lessons').select('module_id').eq('id', c.plain).single()) as { module_id: string }).module_id, course_id: c.id, title: 'Prova vazia', order_index: 3 }).select('id').single())) as { id: string };
    const quiz = (await must(admin.from('quizzes').insert({ lesson_id: lesson.id }).select('id').single())) as { id: string };
    await expect(must(admin.rpc('publish_quiz', { p_quiz_id: quiz.id }))).rejects.toThrow('Adicione ao menos uma pergunta para publicar a avaliação.');
    await must(admin.from('quiz_questions').insert([
      { quiz_id: quiz.id, position: 0, kind: 'single', statement: 'Com resposta', options: [{ id: 'a', text: 'Sim', correct: true }, { id: 'b', text: 'Não', correct: false }] },
      { quiz_id: quiz.id, position: 1, kind: 'multiple', statement: 'Sem resposta', options: [{ id: 'a', text: 'Sim', correct: false }, { id: 'b', text: 'Não', correct: false }] },
    ]).select('id'));
    await expect(must(admin.rpc('publish_quiz', { p_quiz_id: quiz.id }))).rejects.toThrow('A pergunta 2 não tem opção correta.');
    expect(await sql(`select published_version_id from public.quizzes where id = $1`, [quiz.id])).toEqual([{ published_version_id: null }]);
    // Single choice with two correct options is refused where it is stored.
    const two = await admin.from('quiz_questions').insert({ quiz_id: quiz.id, statement: 'Duas certas', options: [{ id: 'a', text: 'A', correct: true }, { id: 'b', text: 'B', correct: true }] });
    expect(two.error?.message).toMatch(/quiz_questions_options_valid/);
  });
});

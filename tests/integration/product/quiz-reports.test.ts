// Issue 23, staff results of quizzes: Reports → Avaliações (public.admin_report_quizzes, read through
// the app's fetchQuizReport) and a quiz's "Resultados" (public.quiz_results) equal numbers computed
// here from the answers this test chose, graded by the rules of docs/quizzes.md: never from the
// database's own grading. The attempts are made by students signed in, through the student RPCs; an
// attempt still open counts nowhere, one refused after its deadline counts with score 0. Staff of
// another school and students get nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { fetchAllQuizReport, fetchQuizReport, type QuizReportRow } from '../../../src/features/reports/api/queries.ts';
import { useBackend } from '../harness.ts';
import { SCHOOL } from '../rls/seed.ts';

const PASSWORD = 'senha-quiz-123';
const PASS_MARK = 70;

const backend = useBackend();
const service = backend.service();
const admin = backend.signedIn('adminDemo');
const instrutor = backend.signedIn('instrutor');
const rival = backend.signedIn('adminRival');
const aluno = backend.signedIn('aluno');

async function must<T>(p: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(JSON.stringify(error));
  return data;
}

// ── The quiz, as this test writes it ─────────────────────────────────────────────────────────
type Kind = 'single' | 'multiple' | 'true_false';
interface QuestionDef {
  key: string;
  kind: Kind;
  scoring: 'all_or_nothing' | 'partial';
  statement: string;
  options: { id: string; text: string; correct: boolean }[];
}
const opt = (id: string, text: string, correct = false) => ({ id, text, correct });
const QUESTIONS: QuestionDef[] = [
  { key: 'soma', kind: 'single', scoring: 'all_or_nothing', statement: 'Qual função soma um intervalo?', options: [opt('a', 'SOMA', true), opt('b', 'MÉDIA'), opt('c', 'CONT.VALORES')] },
  // Partial credit: each right option earns 1/2, each wrong one loses 1/2, never below 0.
  { key: 'procura', kind: 'multiple', scoring: 'partial', statement: 'Marque as funções de busca.', options: [opt('a', 'PROCV', true), opt('b', 'PROCX', true), opt('c', 'SOMA'), opt('d', 'HOJE')] },
  { key: 'graficos', kind: 'multiple', scoring: 'all_or_nothing', statement: 'Quais são tipos de gráfico?', options: [opt('a', 'Colunas', true), opt('b', 'Pizza', true), opt('c', 'Fórmula')] },
  { key: 'igual', kind: 'true_false', scoring: 'all_or_nothing', statement: 'O sinal de igual inicia uma fórmula.', options: [opt('v', 'Verdadeiro', true), opt('f', 'Falso')] },
];
type Answers = Record<string, string[]>; // by question key

/** docs/quizzes.md's grading, written again here: a question's share of its point. */
function earned(q: QuestionDef, chosen: string[]): number {
  const correct = q.options.filter((o) => o.correct).map((o) => o.id);
  const hits = chosen.filter((c) => correct.includes(c)).length;
  const misses = chosen.length - hits;
  if (q.kind === 'multiple' && q.scoring === 'partial') return Math.max(0, (hits - misses) / correct.length);
  return hits === correct.length && misses === 0 ? 1 : 0;
}
const round2 = (x: number) => Math.round(x * 100) / 100;
function grade(answers: Answers) {
  const perQuestion = QUESTIONS.map((q) => ({ key: q.key, statement: q.statement, earned: earned(q, answers[q.key] ?? []) }));
  const score = round2((100 * perQuestion.reduce((a, p) => a + p.earned, 0)) / QUESTIONS.length);
  return { score, passed: score >= PASS_MARK, perQuestion };
}

// ── Fixtures: courses, a quiz built and published by staff, students ──────────────────────────
async function courseWithLesson(title: string) {
  const slug = `quiz-${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;
  const c = (await must(service.from('courses').insert({ school_id: SCHOOL.demo, title, slug, status: 'PUBLISHED' }).select('id').single())) as { id: string };
  const m = (await must(service.from('modules').insert({ course_id: c.id, title: 'Módulo único' }).select('id').single())) as { id: string };
  const l = (await must(service.from('lessons').insert({ module_id: m.id, course_id: c.id, title: `Avaliação de ${title}`, order_index: 0 }).select('id').single())) as { id: string };
  return { id: c.id, title, lessonId: l.id, lessonTitle: `Avaliação de ${title}` };
}

/** Staff build the quiz over REST and publish it; answers the quiz id and question ids by key. */
async function buildQuiz(lessonId: string, questions: QuestionDef[]) {
  const quiz = (await must(
    admin
      .from('quizzes')
      .insert({ lesson_id: lessonId, pass_mark: PASS_MARK, max_attempts: 3, wait_hours: 0, time_limit_minutes: 30, late_policy: 'refuse' })
      .select('id')
      .single(),
  )) as { id: string };
  const ids: Record<string, string> = {};
  for (const [position, q] of questions.entries()) {
    const row = (await must(
      admin
        .from('quiz_questions')
        .insert({ quiz_id: quiz.id, position, kind: q.kind, scoring: q.scoring, statement: q.statement, options: q.options, explanation: `Sobre: ${q.statement}` })
        .select('id')
        .single(),
    )) as { id: string };
    ids[q.key] = row.id;
  }
  await must(admin.rpc('publish_quiz', { p_quiz_id: quiz.id }));
  return { id: quiz.id, questionIds: ids };
}

async function student(name: string, enrollIn: string[]) {
  const email = `quiz.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@exemplo.com.br`;
  const created = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { name, school_id: SCHOOL.demo } });
  if (created.error) throw created.error;
  const id = created.data.user!.id;
  for (const course_id of enrollIn) await must(service.from('enrollments').insert({ user_id: id, course_id, status: 'ACTIVE' }).select('id'));
  return { id, name, email, client: await backend.signIn(email, PASSWORD) };
}
type Student = Awaited<ReturnType<typeof student>>;

interface OpenAttempt {
  open_attempt: { id: string } | null;
}

/** The student starts an attempt (the RPC a browser calls). */
async function start(s: Student, quizId: string): Promise<string> {
  const state = (await must(s.client.rpc('start_quiz_attempt', { p_quiz_id: quizId }))) as OpenAttempt;
  return state.open_attempt!.id;
}

// ── What the test did, to compute the expected numbers from ─────────────────────────────────
interface Done {
  student: Student;
  quizId: string;
  course: { id: string; title: string; lessonTitle: string };
  score: number;
  passed: boolean;
  perQuestion: { key: string; statement: string; earned: number }[] | null; // null: refused late
  /** Order of the submissions (the refused one has its deadline, before all of them). */
  seq: number;
  before: number;
  after: number;
}
const done: Done[] = [];
let seq = 0;

/** Start and submit one attempt with these answers, by question key. */
async function attempt(s: Student, quiz: { id: string; questionIds: Record<string, string> }, course: Done['course'], answers: Answers) {
  const attemptId = await start(s, quiz.id);
  const byId = Object.fromEntries(Object.entries(answers).map(([key, chosen]) => [quiz.questionIds[key]!, chosen]));
  const before = Date.now();
  await must(s.client.rpc('submit_quiz_attempt', { p_attempt_id: attemptId, p_answers: byId }));
  const after = Date.now();
  const g = grade(answers);
  done.push({ student: s, quizId: quiz.id, course, score: g.score, passed: g.passed, perQuestion: g.perQuestion, seq: ++seq, before, after });
}

let excel: Awaited<ReturnType<typeof courseWithLesson>>;
let other: Awaited<ReturnType<typeof courseWithLesson>>;
let quiz: Awaited<ReturnType<typeof buildQuiz>>;
let otherQuiz: Awaited<ReturnType<typeof buildQuiz>>;
let ana: Student, bruno: Student, carla: Student, davi: Student, elisa: Student;
const lateDeadline = new Date(Date.now() - 10 * 60_000).toISOString();

beforeAll(async () => {
  excel = await courseWithLesson('Planilhas Avançadas');
  other = await courseWithLesson('Finanças Pessoais');
  quiz = await buildQuiz(excel.lessonId, QUESTIONS);
  otherQuiz = await buildQuiz(other.lessonId, QUESTIONS.slice(0, 1));
  [ana, bruno, carla, davi, elisa] = await Promise.all([
    student('Ana Aprovada Depois', [excel.id, other.id]),
    student('Bruno Reprovado', [excel.id]),
    student('Carla Primeira', [excel.id]),
    student('Davi Em Andamento', [excel.id]),
    student('Elisa Atrasada', [excel.id]),
  ]);

  // Elisa: started, her deadline passed, the quiz refuses late work: expired with score 0 (docs/quizzes.md).
  const late = await start(elisa, quiz.id);
  await must(service.from('quiz_attempts').update({ started_at: new Date(Date.parse(lateDeadline) - 30 * 60_000).toISOString(), deadline_at: lateDeadline }).eq('id', late).select('id'));
  const refused = (await must(elisa.client.rpc('submit_quiz_attempt', { p_attempt_id: late, p_answers: { [quiz.questionIds.soma!]: ['a'] } }))) as { notice: string };
  expect(refused.notice).toBe('late_refused');
  done.push({ student: elisa, quizId: quiz.id, course: excel, score: 0, passed: false, perQuestion: null, seq: 0, before: Date.parse(lateDeadline), after: Date.parse(lateDeadline) });

  // 1 + 0.5 + 0 + 0 = 1.5 of 4 → 37.5, then everything right → 100.
  await attempt(ana, quiz, excel, { soma: ['a'], procura: ['a'], graficos: ['a'], igual: ['f'] });
  // 0 + (2 − 1)/2 + 1 + 1 = 2.5 → 62.5.
  await attempt(bruno, quiz, excel, { soma: ['b'], procura: ['a', 'b', 'c'], graficos: ['a', 'b'], igual: ['v'] });
  await attempt(ana, quiz, excel, { soma: ['a'], procura: ['a', 'b'], graficos: ['b', 'a'], igual: ['v'] });
  // 1 + 1 + 1 + 0 = 3 → 75: passes at 70.
  await attempt(carla, quiz, excel, { soma: ['a'], procura: ['b', 'a'], graficos: ['a', 'b'], igual: ['f'] });
  // 1 + max(0, −1/2) + 0 (blank) + 1 = 2 → 50.
  await attempt(bruno, quiz, excel, { soma: ['a'], procura: ['c'], graficos: [], igual: ['v'] });
  // Davi starts and never submits: counts nowhere.
  await start(davi, quiz.id);
  // Ana in the other course's one-question quiz: 0.
  const oneQuestion = { id: otherQuiz.id, questionIds: otherQuiz.questionIds };
  const before = Date.now();
  const attemptId = await start(ana, oneQuestion.id);
  await must(ana.client.rpc('submit_quiz_attempt', { p_attempt_id: attemptId, p_answers: { [otherQuiz.questionIds.soma!]: ['c'] } }));
  done.push({ student: ana, quizId: otherQuiz.id, course: other, score: 0, passed: false, perQuestion: null, seq: ++seq, before, after: Date.now() });
});

/** The report's rows computed from `done`: one per student and quiz, newest last attempt first. */
function expectedRows(courseId: string | null) {
  const groups = new Map<string, Done[]>();
  for (const d of done.filter((x) => !courseId || x.course.id === courseId)) {
    const key = `${d.student.id}:${d.quizId}`;
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  return [...groups.values()]
    .map((ds) => ({
      last: ds.reduce((a, d) => (d.seq > a.seq ? d : a)),
      row: {
        user_id: ds[0]!.student.id,
        name: ds[0]!.student.name,
        email: ds[0]!.student.email,
        course_id: ds[0]!.course.id,
        course_title: ds[0]!.course.title,
        quiz_id: ds[0]!.quizId,
        lesson_title: ds[0]!.course.lessonTitle,
        best_score: Math.max(...ds.map((d) => d.score)),
        attempts: ds.length,
        passed: ds.some((d) => d.passed),
      },
    }))
    .sort((a, b) => b.last.seq - a.last.seq);
}

function expectRowsMatch(actual: QuizReportRow[], expected: ReturnType<typeof expectedRows>) {
  expect(actual.map(({ last_attempt_at: _, ...r }) => r)).toEqual(expected.map((e) => e.row));
  for (const [i, e] of expected.entries()) {
    const at = Date.parse(actual[i]!.last_attempt_at);
    expect(at, e.row.name).toBeGreaterThanOrEqual(e.last.before - 1000);
    expect(at, e.row.name).toBeLessThanOrEqual(e.last.after + 1000);
  }
}

describe('Reports → Avaliações (admin_report_quizzes)', () => {
  it('one row per student and quiz: best score, attempts, passed and the last attempt, newest first', async () => {
    const expected = expectedRows(null);
    expect(expected.map((e) => e.row.name)).toEqual(['Ana Aprovada Depois', 'Bruno Reprovado', 'Carla Primeira', 'Ana Aprovada Depois', 'Elisa Atrasada']);
    const page = await fetchQuizReport(admin, { schoolId: SCHOOL.demo, courseId: null, page: 0 });
    // The seed's school may hold other quiz results: ours are the newest, and the total counts them all.
    const ours = page.rows.filter((r) => r.quiz_id === quiz.id || r.quiz_id === otherQuiz.id);
    expectRowsMatch(ours, expected);
    expect(page.rows.slice(0, expected.length)).toEqual(ours);
    expect(page.total).toBeGreaterThanOrEqual(expected.length);
    expect(ours.find((r) => r.name === 'Davi Em Andamento')).toBeUndefined();
    expect(ours.find((r) => r.name === 'Elisa Atrasada')?.last_attempt_at).toSatisfy((at: string) => Date.parse(at) === Date.parse(lateDeadline));
  });

  it('filtered by course, a page at a time with the total; the export reads every row', async () => {
    const expected = expectedRows(excel.id);
    const all = await fetchQuizReport(admin, { schoolId: SCHOOL.demo, courseId: excel.id, page: 0 });
    expect(all.total).toBe(4);
    expectRowsMatch(all.rows, expected);
    const second = await fetchQuizReport(admin, { schoolId: SCHOOL.demo, courseId: excel.id, page: 1, pageSize: 3 });
    expect(second).toEqual({ total: 4, rows: all.rows.slice(3) });
    const beyond = await fetchQuizReport(admin, { schoolId: SCHOOL.demo, courseId: excel.id, page: 5, pageSize: 3 });
    expect(beyond).toEqual({ total: 0, rows: [] });
    expect(await fetchAllQuizReport(admin, { schoolId: SCHOOL.demo, courseId: excel.id })).toEqual(all.rows);
    const otherCourse = await fetchQuizReport(admin, { schoolId: SCHOOL.demo, courseId: other.id, page: 0 });
    expect(otherCourse.total).toBe(1);
    expectRowsMatch(otherCourse.rows, expectedRows(other.id));
    // Any staff of the school reads the same.
    expect(await fetchQuizReport(instrutor, { schoolId: SCHOOL.demo, courseId: excel.id, page: 0 })).toEqual(all);
  });
});

describe("a quiz's results (quiz_results)", () => {
  it('attempts, students, students passed, average score, pass rate and the questions most missed', async () => {
    const finished = done.filter((d) => d.quizId === quiz.id);
    const students = new Set(finished.map((d) => d.student.id));
    const passed = new Set(finished.filter((d) => d.passed).map((d) => d.student.id));
    // Graded attempts answer every question; the refused one graded none.
    const graded = finished.filter((d) => d.perQuestion);
    const missed = QUESTIONS.map((q) => {
      const answered = graded.length;
      const misses = graded.filter((d) => d.perQuestion!.find((p) => p.key === q.key)!.earned < 1).length;
      return { question_id: quiz.questionIds[q.key], statement: q.statement, answered, missed: misses, miss_rate: round2((100 * misses) / answered) };
    })
      .filter((m) => m.missed > 0)
      .sort((a, b) => b.missed - a.missed || b.miss_rate - a.miss_rate || (a.statement < b.statement ? -1 : 1))
      .slice(0, 5);
    const expected = {
      attempts: finished.length,
      students: students.size,
      students_passed: passed.size,
      average_score: round2(finished.reduce((a, d) => a + d.score, 0) / finished.length),
      pass_rate: round2((100 * passed.size) / students.size),
      most_missed: missed,
    };
    // The numbers the choices above make, written out: 6 attempts (37.5, 100, 62.5, 75, 50 and the
    // refused 0) of 4 students, 2 passed.
    expect(expected).toMatchObject({ attempts: 6, students: 4, students_passed: 2, average_score: 54.17, pass_rate: 50 });
    expect(expected.most_missed.map((m) => [m.statement, m.missed])).toEqual([
      ['Marque as funções de busca.', 3],
      ['O sinal de igual inicia uma fórmula.', 2],
      ['Quais são tipos de gráfico?', 2],
      ['Qual função soma um intervalo?', 1],
    ]);

    const actual = (await must(admin.rpc('quiz_results', { p_quiz_id: quiz.id }))) as typeof expected;
    expect({
      ...actual,
      average_score: Number(actual.average_score),
      pass_rate: Number(actual.pass_rate),
      most_missed: actual.most_missed.map((m) => ({ ...m, miss_rate: Number(m.miss_rate) })),
    }).toEqual(expected);
  });

  it('a quiz nobody finished: zero attempts, no average, nothing missed', async () => {
    const empty = await courseWithLesson('Sem Tentativas');
    const q = await buildQuiz(empty.lessonId, QUESTIONS);
    expect(await must(admin.rpc('quiz_results', { p_quiz_id: q.id }))).toEqual({ attempts: 0, students: 0, students_passed: 0, average_score: null, pass_rate: null, most_missed: [] });
    expect(await fetchQuizReport(admin, { schoolId: SCHOOL.demo, courseId: empty.id, page: 0 })).toEqual({ total: 0, rows: [] });
  });
});

describe('who may read them', () => {
  it('staff of another school: refused for this school, and their own report holds none of these rows', async () => {
    await expect(fetchQuizReport(rival, { schoolId: SCHOOL.demo, courseId: null, page: 0 })).rejects.toMatchObject({ code: '42501' });
    await expect(fetchQuizReport(rival, { schoolId: SCHOOL.rival, courseId: excel.id, page: 0 })).resolves.toEqual({ total: 0, rows: [] });
    const own = await fetchAllQuizReport(rival, { schoolId: SCHOOL.rival, courseId: null });
    expect(own.filter((r) => r.quiz_id === quiz.id || r.quiz_id === otherQuiz.id)).toEqual([]);
    const results = await rival.rpc('quiz_results', { p_quiz_id: quiz.id });
    expect(results.data).toBeNull();
    expect(results.error?.code).toBe('42501');
    // Nor over REST.
    expect(await must(rival.from('quiz_attempts').select('id').eq('quiz_id', quiz.id))).toEqual([]);
    expect(await must(rival.from('quiz_attempt_answers').select('attempt_id').eq('course_id', excel.id))).toEqual([]);
  });

  it('a student: neither the report nor the results, and only their own attempts', async () => {
    for (const s of [aluno, ana.client]) {
      await expect(fetchQuizReport(s, { schoolId: SCHOOL.demo, courseId: null, page: 0 })).rejects.toMatchObject({ code: '42501' });
      const results = await s.rpc('quiz_results', { p_quiz_id: quiz.id });
      expect(results.data).toBeNull();
      expect(results.error?.code).toBe('42501');
    }
    const mine = (await must(ana.client.from('quiz_attempts').select('user_id, quiz_id'))) as { user_id: string }[];
    expect(mine.length).toBe(done.filter((d) => d.student.id === ana.id).length);
    expect(new Set(mine.map((r) => r.user_id))).toEqual(new Set([ana.id]));
    expect(await must(ana.client.from('quiz_attempt_answers').select('attempt_id'))).toEqual([]);
    expect(await must(aluno.from('quiz_attempts').select('id').eq('quiz_id', quiz.id))).toEqual([]);
  });
});

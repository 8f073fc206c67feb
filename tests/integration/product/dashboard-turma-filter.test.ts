// Issue 40: the dashboard's Curso and Turma filters show Relatórios' numbers (admin_report_summary with
// p_course_id and p_turma_id). Here each number is computed again from the tables, by other means, for
// the demo's Excel course and for its current turma (with a student of another turma beside it), and
// compared with what the dashboard shows.
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { COURSE, SCHOOL, TURMA } from '../rls/seed.ts';

const DAY = 24 * 60 * 60 * 1000;
const backend = useBackend();
const service = backend.service();
const staff = backend.signedIn('adminDemo');
const rivalStaff = backend.signedIn('adminRival');

async function must<T>(p: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(JSON.stringify(error));
  return data;
}
const spDate = (days: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() + days * DAY));

type Summary = {
  total_students: number;
  active_last_7_days: number;
  average_progress: number;
  courses_completed: number;
  average_rating: number | null;
  comments_last_30_days: number;
};
const summary = async (turmaId: string | null) =>
  (await must(
    staff
      .rpc('admin_report_summary', { p_school_id: SCHOOL.demo, p_course_id: COURSE.excel, p_turma_id: turmaId })
      .single(),
  )) as Summary;

/** The same numbers from the rows: the course's students (of the turma), their lessons done, their last activity. */
async function independent(turmaId: string | null) {
  let q = service.from('enrollments').select('user_id').eq('course_id', COURSE.excel);
  if (turmaId) q = q.eq('turma_id', turmaId);
  const enrolled = [...new Set(((await must(q)) as { user_id: string }[]).map((e) => e.user_id))];
  const staffIds = new Set(
    ((await must(service.from('user_roles').select('user_id'))) as { user_id: string }[]).map((r) => r.user_id),
  );
  const ofSchool = new Set(
    (
      (await must(service.from('profiles').select('id').eq('school_id', SCHOOL.demo).in('id', enrolled))) as {
        id: string;
      }[]
    ).map((p) => p.id),
  );
  const students = enrolled.filter((id) => ofSchool.has(id) && !staffIds.has(id));
  const lessons = ((await must(service.from('lessons').select('id').eq('course_id', COURSE.excel))) as { id: string }[])
    .length;
  const schoolCourses = (
    (await must(service.from('courses').select('id').eq('school_id', SCHOOL.demo))) as { id: string }[]
  ).map((c) => c.id);
  const progress = (await must(
    service
      .from('progress')
      .select('user_id, course_id, completed_at, updated_at')
      .in('user_id', students)
      .in('course_id', schoolCourses),
  )) as {
    user_id: string;
    course_id: string;
    completed_at: string | null;
    updated_at: string;
  }[];
  const weekAgo = Date.now() - 7 * DAY;
  let active = 0;
  let completed = 0;
  const percents: number[] = [];
  for (const id of students) {
    const done = progress.filter((p) => p.user_id === id && p.course_id === COURSE.excel && p.completed_at).length;
    if (lessons > 0) percents.push(Math.round((100 * done) / lessons));
    if (lessons > 0 && done >= lessons) completed += 1;
    const user = (await service.auth.admin.getUserById(id)).data.user;
    const seen = Math.max(
      user?.last_sign_in_at ? Date.parse(user.last_sign_in_at) : 0,
      ...progress.filter((p) => p.user_id === id).map((p) => Date.parse(p.updated_at)),
    );
    if (seen >= weekAgo) active += 1;
  }
  const ratings = (
    (await must(service.from('lesson_ratings').select('rating').eq('course_id', COURSE.excel))) as { rating: number }[]
  ).map((r) => r.rating);
  return {
    total_students: students.length,
    active_last_7_days: active,
    average_progress: percents.length ? Math.round(percents.reduce((a, b) => a + b, 0) / percents.length) : 0,
    courses_completed: completed,
    average_rating: ratings.length ? Math.round((10 * ratings.reduce((a, b) => a + b, 0)) / ratings.length) / 10 : null,
  };
}

beforeAll(async () => {
  // A student of another Excel turma, with a lesson done today: in the course's numbers, not the turma's.
  const other = (await must(
    service
      .from('turmas')
      .insert({ course_id: COURSE.excel, name: 'Turma paralela', starts_on: spDate(-7) })
      .select('id')
      .single(),
  )) as { id: string };
  const created = await service.auth.admin.createUser({
    email: 'paralela.painel@exemplo.com.br',
    password: 'senha-painel-123',
    email_confirm: true,
    user_metadata: { name: 'Paula Paralela', school_id: SCHOOL.demo },
  });
  if (created.error) throw created.error;
  const id = created.data.user!.id;
  await must(
    service.from('enrollments').insert({ user_id: id, course_id: COURSE.excel, turma_id: other.id }).select('id'),
  );
  const lesson = (
    (await must(service.from('lessons').select('id').eq('course_id', COURSE.excel).limit(1).single())) as { id: string }
  ).id;
  await must(
    service
      .from('progress')
      .insert({ user_id: id, lesson_id: lesson, completed_at: new Date().toISOString() })
      .select('id'),
  );
}, 60_000);

describe('Dashboard > Filtrar por curso: the numbers of a course and of a turma', () => {
  it("the course's numbers equal those computed from the rows", async () => {
    const shown = await summary(null);
    expect(shown).toMatchObject(await independent(null));
    expect(shown.total_students).toBeGreaterThan(0);
  });

  it("the turma's numbers equal those computed from the rows, and count fewer students than the course", async () => {
    const shown = await summary(TURMA.excelCurrent);
    expect(shown).toMatchObject(await independent(TURMA.excelCurrent));
    const course = await summary(null);
    expect(shown.total_students).toBeGreaterThan(0);
    expect(shown.total_students).toBeLessThan(course.total_students);
    // Ratings and comments are the course's lessons', whatever the turma.
    expect(shown.average_rating).toBe(course.average_rating);
    expect(shown.comments_last_30_days).toBe(course.comments_last_30_days);
  });

  it("another school's staff read nothing of it (refused); this school's staff read it", async () => {
    const { data, error } = await rivalStaff.rpc('admin_report_summary', {
      p_school_id: SCHOOL.demo,
      p_course_id: COURSE.excel,
      p_turma_id: TURMA.excelCurrent,
    });
    expect(error?.code).toBe('42501');
    expect(data).toBeNull();
    expect((await summary(TURMA.excelCurrent)).total_students).toBeGreaterThan(0);
  });
});

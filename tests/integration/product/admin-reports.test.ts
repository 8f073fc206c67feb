// Issue 10, Reports: every number equals one computed here, independently, from the seed's rows read
// with the service role; staff of another school and students get nothing.
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { COURSE, SCHOOL } from '../rls/seed.ts';
import { fetchReportStudents, fetchReportSummary } from '../../../src/features/reports/api/queries.ts';

const backend = useBackend();
const service = backend.service();
const admin = backend.signedIn('adminDemo');
const rival = backend.signedIn('adminRival');
const aluno = backend.signedIn('aluno');

type Row = Record<string, unknown>;
const all = async (table: string, select = '*'): Promise<Row[]> => (await service.from(table).select(select).limit(10000)).data as unknown as Row[];

/** The report, computed in TypeScript from the raw rows. */
async function expected(schoolId: string, courseId: string | null) {
  const [profiles, roles, courses, enrollments, lessons, progress, ratings, comments] = await Promise.all([
    all('profiles'),
    all('user_roles'),
    all('courses'),
    all('enrollments'),
    all('lessons', 'id, course_id'),
    all('progress'),
    all('lesson_ratings'),
    all('lesson_comments'),
  ]);
  const users = (await service.auth.admin.listUsers({ perPage: 1000 })).data.users;
  const lastSignIn = new Map(users.map((u) => [u.id, u.last_sign_in_at ? Date.parse(u.last_sign_in_at) : null]));
  const staff = new Set(roles.map((r) => r.user_id));
  const schoolCourses = new Set(courses.filter((c) => c.school_id === schoolId && (!courseId || c.id === courseId)).map((c) => c.id));
  const allSchoolCourses = new Set(courses.filter((c) => c.school_id === schoolId).map((c) => c.id));
  const lessonCount = (cid: unknown) => lessons.filter((l) => l.course_id === cid).length;
  const now = Date.now();
  const readable = (c: Row) => c.status === 'published' && c.hidden_at === null;
  const students = profiles
    .filter((p) => p.school_id === schoolId && !staff.has(p.id))
    .map((p) => {
      const enr = enrollments.filter((e) => e.user_id === p.id && schoolCourses.has(e.course_id));
      let completed = 0;
      let total = 0;
      let completedCourses = 0;
      for (const e of enr) {
        const n = lessonCount(e.course_id);
        const done = progress.filter((pr) => pr.user_id === p.id && pr.course_id === e.course_id && pr.completed_at).length;
        completed += done;
        total += n;
        if (n > 0 && done >= n) completedCourses++;
      }
      const activeAll = enrollments.filter((e) => e.user_id === p.id && allSchoolCourses.has(e.course_id) && e.status === 'ACTIVE').length;
      const progressTimes = progress.filter((pr) => pr.user_id === p.id && allSchoolCourses.has(pr.course_id)).map((pr) => Date.parse(pr.updated_at as string));
      const last = Math.max(lastSignIn.get(p.id as string) ?? -Infinity, ...progressTimes);
      return {
        id: p.id as string,
        enrolled: enr.length,
        activeAll,
        completed,
        total,
        completedCourses,
        progress: total > 0 ? Math.round((100 * completed) / total) : 0,
        last: Number.isFinite(last) ? last : null,
      };
    })
    .filter((s) => !courseId || s.enrolled > 0);
  const enrolled = students.filter((s) => s.total > 0);
  const schoolRatings = ratings.filter((r) => schoolCourses.has(r.course_id)).map((r) => Number(r.rating));
  return {
    students,
    summary: {
      total_students: students.length,
      active_last_7_days: students.filter((s) => s.last !== null && s.last >= now - 7 * 86400_000).length,
      average_progress: enrolled.length ? Math.round(enrolled.reduce((a, s) => a + s.progress, 0) / enrolled.length) : 0,
      courses_completed: students.reduce((a, s) => a + s.completedCourses, 0),
      average_rating: schoolRatings.length ? Math.round((schoolRatings.reduce((a, b) => a + b, 0) / schoolRatings.length) * 10) / 10 : null,
      // Only what students can read: published, not hidden, and a reply only under such a question.
      comments_last_30_days: comments.filter(
        (c) => schoolCourses.has(c.course_id) && Date.parse(c.created_at as string) >= now - 30 * 86400_000 && readable(c) && (c.parent_id === null || readable(comments.find((q) => q.id === c.parent_id)!)),
      ).length,
    },
  };
}

describe('reports', () => {
  it('the six numbers equal an independent computation, for the school and for one course', async () => {
    for (const courseId of [null, COURSE.excel]) {
      const exp = await expected(SCHOOL.demo, courseId);
      expect(await fetchReportSummary(admin, SCHOOL.demo, courseId), String(courseId)).toEqual(exp.summary);
    }
    expect((await expected(SCHOOL.demo, null)).summary.total_students).toBeGreaterThan(0);
  });

  it('the tabs hold the right students with their progress, sorted by progress', async () => {
    const exp = await expected(SCHOOL.demo, null);
    const tab = await fetchReportStudents(admin, SCHOOL.demo, 'all', null, 0, null);
    expect(tab.total).toBe(exp.students.length);
    const byId = new Map(exp.students.map((s) => [s.id, s]));
    for (const r of tab.rows) {
      const e = byId.get(r.user_id)!;
      expect({ id: r.user_id, progress: r.progress, completed: r.completed_lessons, total: r.total_lessons, enrolled: r.enrolled_courses }).toEqual({ id: e.id, progress: e.progress, completed: e.completed, total: e.total, enrolled: e.enrolled });
    }
    const progresses = tab.rows.map((r) => r.progress);
    expect(progresses).toEqual([...progresses].sort((a, b) => b - a));
    const multi = await fetchReportStudents(admin, SCHOOL.demo, 'multi', null, 0, null);
    expect(multi.rows.map((r) => r.user_id).sort()).toEqual(exp.students.filter((s) => s.activeAll > 1).map((s) => s.id).sort());
    const inactive = await fetchReportStudents(admin, SCHOOL.demo, 'inactive', null, 0, null);
    expect(inactive.rows.map((r) => r.user_id).sort()).toEqual(exp.students.filter((s) => s.last === null || s.progress < 10).map((s) => s.id).sort());
    const page = await fetchReportStudents(admin, SCHOOL.demo, 'all', null, 1, 2);
    expect(page.rows.map((r) => r.user_id)).toEqual(tab.rows.slice(2, 4).map((r) => r.user_id));
  });

  it('a student with more than one active enrollment shows in the multi-course tab', async () => {
    const ins = await service.from('enrollments').insert({ user_id: 'a0000000-0000-4000-8000-000000000011', course_id: COURSE.marketing, status: 'ACTIVE' }).select('id').single();
    expect(ins.error).toBeNull();
    const multi = await fetchReportStudents(admin, SCHOOL.demo, 'multi', null, 0, null);
    expect(multi.rows.map((r) => r.user_id)).toContain('a0000000-0000-4000-8000-000000000011');
    await service.from('enrollments').delete().eq('id', ins.data!.id);
  });

  it('Academia Rival gets its own numbers; another school and students get nothing', async () => {
    expect(await fetchReportSummary(rival, SCHOOL.rival, null)).toEqual((await expected(SCHOOL.rival, null)).summary);
    await expect(fetchReportSummary(rival, SCHOOL.demo, null)).rejects.toMatchObject({ code: '42501' });
    await expect(fetchReportStudents(rival, SCHOOL.demo, 'all', null, 0)).rejects.toMatchObject({ code: '42501' });
    await expect(fetchReportSummary(aluno, SCHOOL.demo, null)).rejects.toMatchObject({ code: '42501' });
  });
});


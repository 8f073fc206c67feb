// Issue 10, Enrollments: the page's query is scoped and filtered on the server; staff enroll, pause,
// activate and delete in their school only; a duplicate is 23505.
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { COURSE, ENROLLMENT, SCHOOL, USER } from '../rls/seed.ts';
import { fetchEnrollments, searchActiveStudents } from '../../../src/features/enrollments/api/queries.ts';

const backend = useBackend();
const service = backend.service();
const admin = backend.signedIn('adminDemo');
const rival = backend.signedIn('adminRival');
const aluno = backend.signedIn('aluno');

describe('enrollments page query', () => {
  it("returns the school's enrollments with student and course, filtered and counted on the server", async () => {
    // Pages of 100: the demo school has more enrollments than the screen's page of 25 (issue 25's demo).
    const all = await fetchEnrollments(admin, SCHOOL.demo, { courseId: '', status: '' }, 0, 100);
    const expected = (await service.from('enrollments').select('id, status, course_id, courses!inner(school_id)').eq('courses.school_id', SCHOOL.demo)).data!;
    expect(all.total).toBe(expected.length);
    expect(all.rows.map((r) => r.id).sort()).toEqual(expected.map((e) => e.id).sort());
    const aluno = all.rows.find((r) => r.id === ENROLLMENT.aluno)!;
    expect(aluno.student?.name).toBeTruthy();
    expect(aluno.course?.title).toBe('Excel Essencial para o Trabalho');
    const paused = await fetchEnrollments(admin, SCHOOL.demo, { courseId: '', status: 'PAUSED' }, 0, 100);
    expect(paused.rows.map((r) => r.id).sort()).toEqual(expected.filter((e) => e.status === 'PAUSED').map((e) => e.id).sort());
    const byCourse = await fetchEnrollments(admin, SCHOOL.demo, { courseId: COURSE.marketing, status: '' }, 0);
    expect(byCourse.rows.every((r) => r.course_id === COURSE.marketing)).toBe(true);
    const page = await fetchEnrollments(admin, SCHOOL.demo, { courseId: '', status: '' }, 1, 2);
    expect(page.rows.map((r) => r.id)).toEqual(all.rows.slice(2, 4).map((r) => r.id));
  });

  it('gives another school nothing', async () => {
    expect(await fetchEnrollments(rival, SCHOOL.demo, { courseId: '', status: '' }, 0)).toEqual({ rows: [], total: 0 });
  });

  it('the student picker offers only active students', async () => {
    const options = await searchActiveStudents(admin, SCHOOL.demo, '');
    expect(options.some((o) => o.id === USER.inativo)).toBe(false);
    expect(options.some((o) => o.id === USER.aluna)).toBe(true);
  });
});

describe('enrollment writes', () => {
  it('staff enroll, pause, activate and delete; a duplicate is refused', async () => {
    const created = await admin.from('enrollments').insert({ user_id: USER.aluna, course_id: COURSE.marketing, status: 'ACTIVE' }).select('id').single();
    expect(created.error).toBeNull();
    const dup = await admin.from('enrollments').insert({ user_id: USER.aluna, course_id: COURSE.marketing, status: 'ACTIVE' }).select('id');
    expect(dup.error?.code).toBe('23505');
    expect((await admin.from('enrollments').update({ status: 'PAUSED' }).eq('id', created.data!.id).select('status').single()).data!.status).toBe('PAUSED');
    expect((await admin.from('enrollments').update({ status: 'ACTIVE' }).eq('id', created.data!.id).select('status').single()).data!.status).toBe('ACTIVE');
    expect((await admin.from('enrollments').delete().eq('id', created.data!.id).select('id')).data).toHaveLength(1);
  });

  it("another school's staff and students change nothing", async () => {
    const before = (await service.from('enrollments').select('*').eq('id', ENROLLMENT.aluno).single()).data;
    for (const c of [rival, aluno]) {
      await c.from('enrollments').update({ status: 'PAUSED' }).eq('id', ENROLLMENT.aluno);
      await c.from('enrollments').delete().eq('id', ENROLLMENT.aluno);
      const ins = await c.from('enrollments').insert({ user_id: USER.aluna, course_id: COURSE.excel, status: 'ACTIVE' }).select('id');
      expect(ins.error).not.toBeNull();
    }
    expect((await service.from('enrollments').select('*').eq('id', ENROLLMENT.aluno).single()).data).toEqual(before);
  });
});

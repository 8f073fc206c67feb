// Issue 9, admin courses and school appearance: the dashboard counters are exact and scoped, and the
// staff of one school can neither see nor change another school's courses or appearance.
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { COURSE, SCHOOL } from '../rls/seed.ts';
import { fetchAdminCourses } from '../../../src/features/courses/api/admin-queries.ts';
import { fetchDashboardCounts } from '../../../src/features/dashboard/api/queries.ts';

const backend = useBackend();
const service = backend.service();
const admin = backend.signedIn('adminDemo');
const instrutor = backend.signedIn('instrutor');
const rival = backend.signedIn('adminRival');
const aluno = backend.signedIn('aluno');

/** The four counters computed independently from the rows, with the service role. */
async function expectedCounts(schoolId: string) {
  const courses = (await service.from('courses').select('id').eq('school_id', schoolId)).data!.map((c) => c.id as string);
  const profiles = (await service.from('profiles').select('id').eq('school_id', schoolId)).data!.map((p) => p.id as string);
  const staff = new Set((await service.from('user_roles').select('user_id')).data!.map((r) => r.user_id as string));
  const materials = (await service.from('materials').select('id').in('course_id', courses)).data!;
  const enrollments = (await service.from('enrollments').select('status, expires_at').in('course_id', courses)).data!;
  const now = Date.now();
  return {
    courses: courses.length,
    students: profiles.filter((id) => !staff.has(id)).length,
    materials: materials.length,
    active_enrollments: enrollments.filter((e) => e.status === 'ACTIVE' && (!e.expires_at || Date.parse(e.expires_at as string) > now)).length,
  };
}

describe('dashboard counters', () => {
  it('are exact for each school, in one call', async () => {
    const demo = await fetchDashboardCounts(admin, SCHOOL.demo);
    expect(demo).toEqual(await expectedCounts(SCHOOL.demo));
    expect(demo.courses).toBeGreaterThan(0);
    expect(await fetchDashboardCounts(instrutor, SCHOOL.demo)).toEqual(demo);
    expect(await fetchDashboardCounts(rival, SCHOOL.rival)).toEqual(await expectedCounts(SCHOOL.rival));
  });

  it('are refused to staff of another school and to students', async () => {
    await expect(fetchDashboardCounts(rival, SCHOOL.demo)).rejects.toMatchObject({ code: '42501' });
    await expect(fetchDashboardCounts(aluno, SCHOOL.demo)).rejects.toMatchObject({ code: '42501' });
    await expect(fetchDashboardCounts(backend.anon(), SCHOOL.demo)).rejects.toBeTruthy();
  });
});

describe('courses of another school', () => {
  it('never appear in the admin list', async () => {
    const list = await fetchAdminCourses(rival, SCHOOL.demo);
    expect(list).toEqual({ rows: [], total: 0 });
    const own = await fetchAdminCourses(rival, SCHOOL.rival);
    expect(own.rows.map((c) => c.id)).toEqual([COURSE.rival]);
    expect(own.total).toBe(1);
  });

  it('cannot be changed or deleted by a forged request', async () => {
    const before = (await service.from('courses').select('*').eq('id', COURSE.excel).single()).data;
    const upd = await rival.from('courses').update({ title: 'Hackeado', status: 'DRAFT' }).eq('id', COURSE.excel).select('id');
    expect(upd.data ?? []).toEqual([]);
    const del = await rival.from('courses').delete().eq('id', COURSE.excel).select('id');
    expect(del.data ?? []).toEqual([]);
    const moved = await rival.from('courses').insert({ school_id: SCHOOL.demo, title: 'Intruso', slug: 'intruso' }).select('id');
    expect(moved.error?.code).toBe('42501');
    expect((await service.from('courses').select('*').eq('id', COURSE.excel).single()).data).toEqual(before);
  });

  it("cannot change the other school's appearance", async () => {
    const before = (await service.from('schools').select('*').eq('id', SCHOOL.demo).single()).data;
    const upd = await rival.from('schools').update({ support_whatsapp: '5511000000000', login_banner_url: 'https://evil.example/x.jpg' }).eq('id', SCHOOL.demo).select('id');
    expect(upd.data ?? []).toEqual([]);
    expect((await service.from('schools').select('*').eq('id', SCHOOL.demo).single()).data).toEqual(before);
  });
});

describe('course writes', () => {
  it('an instructor creates, edits and deletes a course of the school; a duplicate slug is 23505', async () => {
    const slug = `curso-instrutor-${Date.now()}`;
    const created = await instrutor.from('courses').insert({ school_id: SCHOOL.demo, title: 'Curso do instrutor', slug, price: 297, max_installments: 6 }).select('id, status').single();
    expect(created.error).toBeNull();
    expect(created.data!.status).toBe('DRAFT');
    const dup = await instrutor.from('courses').insert({ school_id: SCHOOL.demo, title: 'Outro', slug }).select('id');
    expect(dup.error?.code).toBe('23505');
    const upd = await instrutor.from('courses').update({ status: 'PUBLISHED' }).eq('id', created.data!.id).select('status').single();
    expect(upd.data!.status).toBe('PUBLISHED');
    const del = await instrutor.from('courses').delete().eq('id', created.data!.id).select('id');
    expect(del.data).toHaveLength(1);
  });

  it('a student cannot create or change courses', async () => {
    const ins = await aluno.from('courses').insert({ school_id: SCHOOL.demo, title: 'Aluno', slug: 'curso-do-aluno' }).select('id');
    expect(ins.error?.code).toBe('42501');
    const upd = await aluno.from('courses').update({ title: 'X' }).eq('id', COURSE.excel).select('id');
    expect(upd.data ?? []).toEqual([]);
  });
});

// Staff (SCHOOL_ADMIN, INSTRUCTOR) of Escola Demo and the SCHOOL_ADMIN of Academia Rival: each manages
// everything of their own school and nothing of the other.
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { ids, none, ok, refused } from '../rls/expect.ts';
import { ANNOUNCEMENT, COMMENT, COURSE, ENROLLMENT, INTEGRATION, LESSON, MATERIAL, MODULE, SCHOOL, SECRETS, USER } from '../rls/seed.ts';

const backend = useBackend();
const service = backend.service();
const admin = backend.signedIn('adminDemo');
const instrutor = backend.signedIn('instrutor');
const rival = backend.signedIn('adminRival');

describe('reads are scoped to the school', () => {
  it('staff read every course of their school, whatever the status, and none of the other', async () => {
    for (const client of [admin, instrutor]) {
      const courses = await ok(client.from('courses').select('id'));
      expect(ids(courses)).toEqual([COURSE.excel, COURSE.marketing, COURSE.draft, COURSE.archived].sort());
    }
    expect(ids(await ok(rival.from('courses').select('id')))).toEqual([COURSE.rival]);
    await none(rival.from('modules').select('id').eq('course_id', COURSE.excel));
    await none(rival.from('lesson_contents').select('lesson_id').eq('lesson_id', LESSON.excelPreview));
  });

  it('staff open every lesson of their school without enrollment, including drafts', async () => {
    const rows = await ok(instrutor.from('lesson_contents').select('lesson_id').in('lesson_id', [LESSON.excelProcv, LESSON.marketingPaid, LESSON.draft]));
    expect(rows).toHaveLength(3);
    await none(admin.from('lesson_contents').select('lesson_id').eq('lesson_id', LESSON.rivalPaid));
  });

  it("read their school's students with private fields, not the other school's", async () => {
    const profiles = await ok(admin.from('profiles').select('id, cpf, school_id').order('created_at', { ascending: false }));
    expect(new Set(profiles.map((p: { school_id: string }) => p.school_id))).toEqual(new Set([SCHOOL.demo]));
    expect(profiles.find((p: { id: string }) => p.id === USER.aluno).cpf).toBe('123.456.789-09');
    await none(admin.from('profiles').select('id').eq('id', USER.alunoRival));
    await none(rival.from('profiles').select('id, cpf').eq('id', USER.aluno));
  });

  it('read the reports data of their school only', async () => {
    const enr = await ok(admin.from('enrollments').select('id, profiles(name), courses(title)').order('created_at', { ascending: false }));
    const school = await ok(service.from('enrollments').select('id, courses!inner(school_id)').eq('courses.school_id', SCHOOL.demo));
    expect(ids(enr)).toEqual(ids(school));
    expect(ids(enr)).toEqual(expect.arrayContaining([ENROLLMENT.aluno, ENROLLMENT.pausado, ENROLLMENT.expirado, ENROLLMENT.inativo]));
    expect(ids(enr)).not.toContain(ENROLLMENT.alunoRival);
    expect(enr.every((e: { profiles: unknown }) => e.profiles !== null)).toBe(true);
    for (const t of ['progress', 'lesson_ratings', 'lesson_comments']) {
      const rows = await ok(admin.from(t).select('course_id'));
      expect(rows.length, t).toBeGreaterThan(0);
      expect(rows.every((r: { course_id: string }) => r.course_id !== COURSE.rival), t).toBe(true);
      await none(rival.from(t).select('course_id').eq('course_id', COURSE.excel));
    }
    const { count } = await admin.from('materials').select('id, courses!inner(school_id)', { count: 'exact', head: true }).eq('courses.school_id', SCHOOL.demo);
    expect(count).toBe(4);
  });

  it('read all announcements of their school, active or not', async () => {
    const a = await ok(admin.from('announcements').select('id'));
    expect(ids(a)).toEqual([ANNOUNCEMENT.demoHigh, ANNOUNCEMENT.demoCourse, ANNOUNCEMENT.demoInactive].sort());
    await none(rival.from('announcements').select('id').eq('school_id', SCHOOL.demo));
  });

  it('read roles of their school, not of others', async () => {
    const roles = await ok(admin.from('user_roles').select('user_id, role'));
    expect(roles.map((r: { user_id: string }) => r.user_id).sort()).toEqual([USER.adminDemo, USER.instrutor].sort());
    await none(rival.from('user_roles').select('*').eq('school_id', SCHOOL.demo));
  });
});

describe('content management', () => {
  it('builds a course of their school end to end', async () => {
    const course = await ok(
      instrutor.from('courses').insert({ school_id: SCHOOL.demo, instructor_id: USER.instrutor, title: 'Novo curso', slug: 'novo-curso', price: 49.9, max_installments: 2 })
        .select('id, status').single(),
    );
    expect(course.status).toBe('DRAFT');
    const mod = await ok(instrutor.from('modules').insert({ course_id: course.id, title: 'Módulo 1', order_index: 0 }).select('id').single());
    const lesson = await ok(instrutor.from('lessons').insert({ module_id: mod.id, title: 'Aula 1', order_index: 0 }).select('id, course_id').single());
    expect(lesson.course_id).toBe(course.id);
    const content = await ok(
      instrutor.from('lesson_contents').update({ content: '# Olá', video_url: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ' })
        .eq('lesson_id', lesson.id).select('content'),
    );
    expect(content).toEqual([{ content: '# Olá' }]);
    await ok(instrutor.from('lesson_contents').upsert({ lesson_id: lesson.id, content: '# Upsert' }, { onConflict: 'lesson_id' }));
    await ok(instrutor.from('materials').insert({ course_id: course.id, lesson_id: lesson.id, title: 'Link', type: 'LINK', url: 'https://exemplo.com.br' }));
    await ok(instrutor.from('courses').update({ status: 'PUBLISHED' }).eq('id', course.id));
    const deleted = await ok(admin.from('courses').delete().eq('id', course.id).select('id'));
    expect(deleted).toHaveLength(1);
    const { count } = await service.from('lessons').select('id', { count: 'exact', head: true }).eq('id', lesson.id);
    expect(count).toBe(0);
  });

  it("cannot create or change anything in another school's courses", async () => {
    await refused(admin.from('courses').insert({ school_id: SCHOOL.rival, title: 'Invasão', slug: 'invasao' }));
    await none(admin.from('courses').update({ title: 'Hack' }).eq('id', COURSE.rival).select('id'));
    await none(admin.from('courses').delete().eq('id', COURSE.rival).select('id'));
    await refused(admin.from('modules').insert({ course_id: COURSE.rival, title: 'x' }));
    await refused(admin.from('lessons').insert({ module_id: MODULE.rival1, title: 'x' }));
    await none(admin.from('lessons').update({ is_preview: true }).eq('id', LESSON.rivalPaid).select('id'));
    await none(admin.from('lesson_contents').update({ content: 'x' }).eq('lesson_id', LESSON.rivalPaid).select('lesson_id'));
    await refused(admin.from('materials').insert({ course_id: COURSE.rival, title: 'x', type: 'LINK', url: 'https://x.y' }));
    // Naming a rival lesson with an own course id: course_id follows the lesson, and is refused.
    await refused(admin.from('materials').insert({ course_id: COURSE.excel, lesson_id: LESSON.rivalPaid, title: 'x', type: 'LINK', url: 'https://x.y' }));
    await none(admin.from('materials').delete().eq('id', MATERIAL.rival).select('id'));
    // Moving an own lesson into the other school's module.
    await refused(admin.from('lessons').update({ module_id: MODULE.rival1 }).eq('id', LESSON.excelText));
    // Moving an own course to the other school.
    await refused(admin.from('courses').update({ school_id: SCHOOL.rival }).eq('id', COURSE.archived));
    const { data } = await service.from('courses').select('title, school_id').eq('id', COURSE.rival).single();
    expect(data).toEqual({ title: 'Inglês para Viagens', school_id: SCHOOL.rival });
  });

  it('moderates comments of its school only', async () => {
    await none(rival.from('lesson_comments').delete().eq('id', COMMENT.alunoPreview).select('id'));
    const del = await ok(admin.from('lesson_comments').delete().eq('id', COMMENT.alunoPreview).select('id'));
    expect(del).toHaveLength(1);
    await none(admin.from('lesson_comments').delete().eq('id', COMMENT.rival).select('id'));
  });

  it('manages announcements of its school only', async () => {
    await ok(admin.from('announcements').insert({ school_id: SCHOOL.demo, instructor_id: USER.adminDemo, title: 'Aviso', body: '<p>Oi</p>', priority: 3 }));
    await refused(admin.from('announcements').insert({ school_id: SCHOOL.rival, title: 'Aviso', body: 'x' }));
    await refused(admin.from('announcements').insert({ school_id: SCHOOL.demo, course_id: COURSE.rival, title: 'Aviso', body: 'x' }));
    await none(rival.from('announcements').update({ is_active: false }).eq('id', ANNOUNCEMENT.demoHigh).select('id'));
    await ok(admin.from('announcements').update({ is_active: false }).eq('id', ANNOUNCEMENT.demoCourse));
  });

  it('updates its school appearance, not the other', async () => {
    const row = await ok(
      admin.from('schools').update({ member_area_name: 'Área Nova', banner_position: '30% 70%', support_whatsapp: '5511988887777' })
        .eq('id', SCHOOL.demo).select('member_area_name').single(),
    );
    expect(row.member_area_name).toBe('Área Nova');
    await refused(admin.from('schools').update({ support_whatsapp: '123' }).eq('id', SCHOOL.demo));
    await none(admin.from('schools').update({ name: 'Hack' }).eq('id', SCHOOL.rival).select('id'));
    await refused(admin.from('schools').insert({ slug: 'nova-escola', name: 'Nova' }));
    await none(admin.from('schools').delete().eq('id', SCHOOL.demo).select('id'));
  });
});

describe('students and enrollments', () => {
  it("enrolls, pauses and removes its school's students in its courses only", async () => {
    const e = await ok(admin.from('enrollments').insert({ user_id: USER.aluna, course_id: COURSE.marketing, status: 'ACTIVE' }).select('id').single());
    await ok(admin.from('enrollments').update({ status: 'PAUSED' }).eq('id', e.id));
    await ok(admin.from('enrollments').delete().eq('id', e.id));
    await refused(admin.from('enrollments').insert({ user_id: USER.alunoRival, course_id: COURSE.excel }));
    await refused(admin.from('enrollments').insert({ user_id: USER.aluna, course_id: COURSE.rival }));
    await refused(rival.from('enrollments').insert({ user_id: USER.alunoRival, course_id: COURSE.excel }));
    await none(rival.from('enrollments').update({ status: 'PAUSED' }).eq('id', ENROLLMENT.aluno).select('id'));
    await none(rival.from('enrollments').delete().eq('id', ENROLLMENT.aluno).select('id'));
  });

  it('toggles a student active, forces a password change, edits the student', async () => {
    await ok(admin.from('profiles').update({ is_active: false }).eq('id', USER.aluna));
    await ok(admin.from('profiles').update({ is_active: true, must_change_password: true, name: 'Mariana A.' }).eq('id', USER.aluna));
    const { data } = await service.from('profiles').select('is_active, must_change_password, name').eq('id', USER.aluna).single();
    expect(data).toEqual({ is_active: true, must_change_password: true, name: 'Mariana A.' });
    await ok(service.from('profiles').update({ must_change_password: false }).eq('id', USER.aluna));
  });

  it('cannot move a student to another school, nor manage other schools or staff accounts', async () => {
    await refused(admin.from('profiles').update({ school_id: SCHOOL.rival }).eq('id', USER.aluna));
    await none(admin.from('profiles').update({ is_active: false }).eq('id', USER.alunoRival).select('id'));
    await none(rival.from('profiles').update({ is_active: false }).eq('id', USER.aluno).select('id'));
    // Staff accounts are the super admin's to manage.
    await none(instrutor.from('profiles').update({ is_active: false }).eq('id', USER.adminDemo).select('id'));
    await none(admin.from('profiles').update({ is_active: false }).eq('id', USER.super).select('id'));
    // Nor their own activity flag.
    await refused(admin.from('profiles').update({ is_active: false }).eq('id', USER.adminDemo));
    const { data } = await service.from('profiles').select('id, is_active, school_id').in('id', [USER.aluna, USER.alunoRival, USER.aluno, USER.adminDemo]);
    for (const p of data!) expect(p.is_active, p.id).toBe(true);
  });

  it('cannot grant roles, not even to itself', async () => {
    await refused(admin.from('user_roles').insert({ user_id: USER.aluna, school_id: SCHOOL.demo, role: 'INSTRUCTOR' }));
    await refused(admin.from('user_roles').insert({ user_id: USER.adminDemo, school_id: null, role: 'SUPER_ADMIN' }));
    await refused(instrutor.from('user_roles').insert({ user_id: USER.instrutor, school_id: SCHOOL.demo, role: 'SCHOOL_ADMIN' }));
    await none(instrutor.from('user_roles').update({ role: 'SCHOOL_ADMIN' }).eq('user_id', USER.instrutor).select('id'));
    await none(admin.from('user_roles').delete().eq('user_id', USER.instrutor).select('id'));
    await none(rival.from('user_roles').update({ school_id: SCHOOL.demo }).eq('user_id', USER.adminRival).select('id'));
    const { data } = await service.from('user_roles').select('user_id, school_id, role').order('user_id');
    expect(data).toHaveLength(4);
  });
});

describe('integrations and secrets', () => {
  it('lists its integrations with the last 4 characters only', async () => {
    const rows = await ok(admin.from('integration_settings').select('*'));
    expect(ids(rows)).toEqual([INTEGRATION.demo]);
    expect(rows[0].api_key_last4).toBe('demo');
    expect(JSON.stringify(rows)).not.toContain('SEGREDO');
    await none(admin.from('integration_settings').select('id').eq('id', INTEGRATION.rival));
  });

  it('adds an integration through the RPC for its own school only; the key is never returned', async () => {
    const row = await ok(admin.rpc('create_integration', { p_provider: 'stripe', p_environment: 'production', p_api_key: 'sk_live_TOTALSECRET9876' }));
    expect(row).toMatchObject({ school_id: SCHOOL.demo, provider: 'stripe', environment: 'production', api_key_last4: '9876', is_active: true });
    expect(JSON.stringify(row)).not.toContain('TOTALSECRET');
    await refused(admin.rpc('create_integration', { p_provider: 'stripe', p_environment: 'sandbox', p_api_key: 'k', p_school_id: SCHOOL.rival }));
    await refused(admin.rpc('create_integration', { p_provider: 'paypal', p_environment: 'sandbox', p_api_key: 'k' }));
    await refused(admin.rpc('create_integration', { p_provider: 'asaas', p_environment: 'sandbox', p_api_key: '  ' }));
    await refused(admin.from('integration_settings').insert({ school_id: SCHOOL.demo, provider: 'asaas', environment: 'sandbox' }));
    // The edge functions' way to the key.
    const secret = await ok(service.rpc('get_integration_secret', { p_school_id: SCHOOL.demo, p_provider: 'stripe' }));
    expect(secret[0].api_key).toBe('sk_live_TOTALSECRET9876');
  });

  it('toggles and deletes its own integrations, not the other school ones', async () => {
    await ok(admin.from('integration_settings').update({ is_active: false }).eq('id', INTEGRATION.demo));
    await none(admin.from('integration_settings').update({ is_active: false }).eq('id', INTEGRATION.rival).select('id'));
    await none(admin.from('integration_settings').delete().eq('id', INTEGRATION.rival).select('id'));
    const { data } = await service.from('integration_settings').select('is_active').eq('id', INTEGRATION.rival).single();
    expect(data!.is_active).toBe(true);
  });

  it('never sees the system key, nor calls the secret RPCs', async () => {
    await none(admin.from('system_config').select('*'));
    await refused(admin.rpc('set_system_config', { p_key: 'ASAAS_API_KEY', p_value: 'roubada' }));
    await refused(admin.rpc('get_system_secret', { p_key: 'ASAAS_API_KEY' }));
    await refused(admin.rpc('get_integration_secret', { p_school_id: SCHOOL.demo, p_provider: 'asaas' }));
    await refused(admin.from('system_config').insert({ key: 'ASAAS_API_KEY', value_last4: 'x' }));
    for (const client of [admin, instrutor, rival]) {
      for (const t of ['integration_settings', 'system_config', 'profiles', 'schools']) {
        const { data } = await client.from(t).select('*');
        for (const s of SECRETS) expect(JSON.stringify(data ?? null)).not.toContain(s);
      }
    }
  });
});

// The super admin (everything, but never roles for itself or its own activity) and inactive accounts
// (nothing, even with a token issued before deactivation).
import { describe, expect, it } from 'vitest';
import { signLessonVideo } from '../../../src/features/lessons/api/queries.ts';
import { useBackend } from '../harness.ts';
import { ids, none, ok, refused } from '../rls/expect.ts';
import { COURSE, EMAIL, LESSON, OBJECT, SCHOOL, SECRETS, USER } from '../rls/seed.ts';

const backend = useBackend();
const service = backend.service();
const superAdmin = backend.signedIn('super');

describe('super admin', () => {
  it('reads everything of every school', async () => {
    expect(ids(await ok(superAdmin.from('schools').select('id')))).toEqual([SCHOOL.demo, SCHOOL.rival]);
    expect(await ok(superAdmin.from('courses').select('id'))).toHaveLength(5);
    // The 11 accounts of the RLS matrix and the 14 students of issue 25's analytics demo.
    expect(await ok(superAdmin.from('profiles').select('id'))).toHaveLength(25);
    expect(await ok(superAdmin.from('user_roles').select('id'))).toHaveLength(4);
    expect(await ok(superAdmin.from('integration_settings').select('id'))).toHaveLength(2);
    const admins = await ok(superAdmin.from('user_roles').select('user_id, school_id').eq('role', 'SCHOOL_ADMIN'));
    expect(admins).toHaveLength(2);
    await ok(superAdmin.from('lesson_contents').select('lesson_id').eq('lesson_id', LESSON.rivalPaid).single());
  });

  it('manages the system key through the RPC and sees only its last 4 characters', async () => {
    const cfg = await ok(superAdmin.from('system_config').select('*'));
    expect(cfg).toHaveLength(1);
    expect(cfg[0]).toMatchObject({ key: 'ASAAS_API_KEY', value_last4: '_key' });
    const row = await ok(superAdmin.rpc('set_system_config', { p_key: 'ASAAS_API_KEY', p_value: '$aact_NOVACHAVE_4321', p_description: 'Produção' }));
    expect(row).toMatchObject({ key: 'ASAAS_API_KEY', value_last4: '4321', description: 'Produção' });
    expect(JSON.stringify(row)).not.toContain('NOVACHAVE');
    await refused(superAdmin.rpc('set_system_config', { p_key: 'ASAAS_API_KEY', p_value: '' }));
    await refused(superAdmin.rpc('get_system_secret', { p_key: 'ASAAS_API_KEY' }));
    await none(superAdmin.from('system_config').update({ value_last4: 'x' }).eq('key', 'ASAAS_API_KEY').select('id'));
    expect(await ok(service.rpc('get_system_secret', { p_key: 'ASAAS_API_KEY' }))).toBe('$aact_NOVACHAVE_4321');
    const all = await superAdmin.from('system_config').select('*');
    for (const s of [...SECRETS, '$aact_NOVACHAVE_4321']) expect(JSON.stringify(all.data)).not.toContain(s);
  });

  it('creates schools and grants roles to others, never to itself', async () => {
    const school = await ok(superAdmin.from('schools').insert({ slug: 'escola-nova', name: 'Escola Nova' }).select('id').single());
    await ok(superAdmin.from('user_roles').insert({ user_id: USER.aluna, school_id: SCHOOL.demo, role: 'STAFF' }));
    await ok(superAdmin.from('user_roles').delete().eq('user_id', USER.aluna));
    await refused(superAdmin.from('user_roles').insert({ user_id: USER.super, school_id: school.id, role: 'SCHOOL_ADMIN' }));
    await none(superAdmin.from('user_roles').delete().eq('user_id', USER.super).select('id'));
    await ok(superAdmin.from('schools').delete().eq('id', school.id));
  });

  it('toggles school admins and moves accounts, but never its own activity', async () => {
    await ok(superAdmin.from('profiles').update({ is_active: false }).eq('id', USER.adminRival));
    await ok(superAdmin.from('profiles').update({ is_active: true }).eq('id', USER.adminRival));
    await refused(superAdmin.from('profiles').update({ is_active: false }).eq('id', USER.super));
  });
});

describe('inactive accounts', () => {
  it('the seeded inactive account reads nothing but its own profile', async () => {
    const { data, error } = await backend.anon().auth.signInWithPassword({ email: EMAIL.inativo, password: 'senha123' });
    if (error) return; // refused at sign-in is fine too
    const client = backend.anon();
    await client.auth.setSession({ access_token: data.session!.access_token, refresh_token: data.session!.refresh_token });
    const me = await ok(client.from('profiles').select('id, is_active'));
    expect(me).toEqual([{ id: USER.inativo, is_active: false }]);
    for (const t of ['schools', 'courses', 'modules', 'lessons', 'lesson_contents', 'materials', 'enrollments', 'progress',
      'lesson_comments', 'lesson_ratings', 'announcements', 'user_roles']) {
      await none(client.from(t).select('*'));
    }
    await none(client.from('profiles').update({ name: 'x' }).eq('id', USER.inativo).select('id'));
    await none(client.from('profiles').update({ is_active: true }).eq('id', USER.inativo).select('id'));
    await refused(client.from('progress').insert({ user_id: USER.inativo, course_id: COURSE.excel, lesson_id: LESSON.excelPreview }));
    await refused(client.storage.from('lesson-videos').createSignedUrl(OBJECT.lessonVideo, 60));
    const { data: p } = await service.from('profiles').select('is_active').eq('id', USER.inativo).single();
    expect(p!.is_active).toBe(false);
  });

  it('a student deactivated after signing in loses everything at once', async () => {
    const aluno = await backend.signIn(EMAIL.aluno);
    await ok(aluno.from('lesson_contents').select('lesson_id').eq('lesson_id', LESSON.excelProcv).single());
    await signLessonVideo(aluno, OBJECT.lessonVideo, 60);
    await ok(service.from('profiles').update({ is_active: false }).eq('id', USER.aluno));

    await none(aluno.from('courses').select('id'));
    await none(aluno.from('lesson_contents').select('lesson_id'));
    await none(aluno.from('progress').select('id'));
    await none(aluno.from('enrollments').select('id'));
    await refused(aluno.from('lesson_comments').insert({ user_id: USER.aluno, lesson_id: LESSON.excelProcv, comment: 'ainda aqui?' }));
    await refused(aluno.from('progress').upsert({ user_id: USER.aluno, course_id: COURSE.excel, lesson_id: LESSON.excelProcv, last_position_sec: 5 }, { onConflict: 'user_id,lesson_id' }));
    await none(aluno.from('profiles').update({ is_active: true }).eq('id', USER.aluno).select('id'));
    await none(aluno.from('profiles').update({ name: 'Ainda eu' }).eq('id', USER.aluno).select('id'));
    await expect(signLessonVideo(aluno, OBJECT.lessonVideo, 60)).rejects.toThrow();
    await refused(aluno.storage.from('avatars').upload(`${USER.aluno}/avatar.png`, new Blob([new Uint8Array([1])], { type: 'image/png' }), { upsert: true }));
    const { data } = await service.from('profiles').select('is_active, name').eq('id', USER.aluno).single();
    expect(data).toEqual({ is_active: false, name: 'Lucas Aluno' });
    await ok(service.from('profiles').update({ is_active: true }).eq('id', USER.aluno));
  });

  it('a school admin deactivated after signing in manages nothing', async () => {
    const admin = await backend.signIn(EMAIL.adminDemo);
    await ok(service.from('profiles').update({ is_active: false }).eq('id', USER.adminDemo));
    await none(admin.from('profiles').select('id').neq('id', USER.adminDemo));
    await none(admin.from('courses').select('id'));
    await none(admin.from('integration_settings').select('id'));
    await refused(admin.from('courses').insert({ school_id: SCHOOL.demo, title: 'x', slug: 'x-inativo' }));
    await none(admin.from('courses').update({ title: 'x' }).eq('id', COURSE.excel).select('id'));
    await none(admin.from('profiles').update({ is_active: true }).eq('id', USER.adminDemo).select('id'));
    await refused(admin.rpc('create_integration', { p_provider: 'asaas', p_environment: 'sandbox', p_api_key: 'k' }));
    await ok(service.from('profiles').update({ is_active: true }).eq('id', USER.adminDemo));
  });
});

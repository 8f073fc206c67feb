// An attacker holding only the public anon key: reads the login page of a school, nothing else.
import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { useBackend } from '../harness.ts';
import { none, ok, refused } from '../rls/expect.ts';
import { COURSE, INTEGRATION, LESSON, OBJECT, SCHOOL, SCHOOL_LOGIN_COLUMNS, USER } from '../rls/seed.ts';

const backend = useBackend();
let anon: SupabaseClient;
beforeAll(async () => {
  anon = backend.anon();
});

const TABLES = [
  'profiles', 'user_roles', 'courses', 'modules', 'lessons', 'lesson_contents', 'materials', 'enrollments',
  'progress', 'lesson_comments', 'lesson_ratings', 'announcements', 'integration_settings', 'system_config',
];

describe('anon: schools', () => {
  it('reads the login-page fields of a school by slug', async () => {
    const school = await ok(anon.from('schools').select(SCHOOL_LOGIN_COLUMNS).eq('slug', 'escola-demo').single());
    expect(school).toMatchObject({
      id: SCHOOL.demo,
      name: 'Escola Demo',
      member_area_name: 'Área de Membros Demo',
      support_whatsapp: '5511999998888',
      login_banner_position: '50% 40%',
      primary_color: '#3b82f6',
    });
  });

  it('cannot read any other column of schools', async () => {
    await refused(anon.from('schools').select('*').eq('slug', 'escola-demo'));
    await refused(anon.from('schools').select('id, description'));
    await refused(anon.from('schools').select('banner_url'));
    await refused(anon.from('schools').select('created_at'));
  });

  it('cannot write schools', async () => {
    await refused(anon.from('schools').insert({ slug: 'pirata', name: 'Pirata' }));
    await none(anon.from('schools').update({ name: 'Hackeada' }).eq('id', SCHOOL.demo).select('id'));
    await none(anon.from('schools').delete().eq('id', SCHOOL.rival).select('id'));
    const { data } = await backend.service().from('schools').select('name').eq('id', SCHOOL.demo).single();
    expect(data).toEqual({ name: 'Escola Demo' });
  });
});

describe('anon: every other table', () => {
  it.each(TABLES)('reads nothing from %s', async (table) => {
    await none(anon.from(table).select('*'));
    await none(anon.from(table).select('id').limit(1));
  });

  it('cannot insert into the tables that matter', async () => {
    await refused(anon.from('courses').insert({ school_id: SCHOOL.demo, title: 'x', slug: 'x' }));
    await refused(anon.from('enrollments').insert({ user_id: USER.aluna, course_id: COURSE.excel }));
    await refused(anon.from('user_roles').insert({ user_id: USER.aluna, school_id: SCHOOL.demo, role: 'SCHOOL_ADMIN' }));
    await refused(anon.from('lesson_comments').insert({ user_id: USER.aluno, lesson_id: LESSON.excelPreview, comment: 'spam' }));
    await refused(anon.from('progress').insert({ user_id: USER.aluno, lesson_id: LESSON.excelPreview }));
  });

  it('cannot update or delete anything', async () => {
    await none(anon.from('profiles').update({ is_active: true }).eq('id', USER.inativo).select('id'));
    await none(anon.from('courses').delete().eq('id', COURSE.excel).select('id'));
    await none(anon.from('integration_settings').update({ is_active: false }).eq('id', INTEGRATION.demo).select('id'));
    const { count } = await backend.service().from('courses').select('id', { count: 'exact', head: true }).eq('id', COURSE.excel);
    expect(count).toBe(1);
  });

  it('cannot call the RPCs', async () => {
    await refused(anon.rpc('get_system_secret', { p_key: 'ASAAS_API_KEY' }));
    await refused(anon.rpc('get_integration_secret', { p_school_id: SCHOOL.demo, p_provider: 'asaas' }));
    await refused(anon.rpc('create_integration', { p_provider: 'asaas', p_environment: 'sandbox', p_api_key: 'x', p_school_id: SCHOOL.demo }));
    await refused(anon.rpc('set_system_config', { p_key: 'ASAAS_API_KEY', p_value: 'x' }));
  });
});

describe('anon: storage', () => {
  it('cannot list any bucket, public or private', async () => {
    for (const bucket of ['avatars', 'school-banners', 'course-thumbnails', 'lesson-videos', 'announcement-videos', 'lesson-materials']) {
      await none(anon.storage.from(bucket).list(SCHOOL.demo));
      await none(anon.storage.from(bucket).list());
    }
  });

  it('cannot sign or download private files', async () => {
    await refused(anon.storage.from('lesson-videos').createSignedUrl(OBJECT.lessonVideo, 60));
    await refused(anon.storage.from('lesson-materials').createSignedUrl(OBJECT.lessonPdf, 60));
    await refused(anon.storage.from('lesson-materials').download(OBJECT.lessonPdf));
  });

  it('cannot upload anywhere', async () => {
    const png = new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' });
    await refused(anon.storage.from('avatars').upload(`${USER.aluno}/avatar.png`, png, { upsert: true }));
    await refused(anon.storage.from('school-banners').upload(`${SCHOOL.demo}/x.png`, png));
    await refused(anon.storage.from('course-thumbnails').upload(OBJECT.excelThumb, png, { upsert: true }));
  });
});

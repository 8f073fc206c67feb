// Students of both schools, signed in with supabase-js: what they read, what they write, and every
// neighbouring thing they must not (other users, other schools, paid lessons without an ACTIVE and
// unexpired enrollment, roles, secrets, protected profile columns).
import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { useBackend } from '../harness.ts';
import { ids, none, ok, refused } from '../rls/expect.ts';
import { COMMENT, COURSE, EMAIL, ENROLLMENT, LESSON, MATERIAL, MODULE, SCHOOL, SECRETS, USER, ANNOUNCEMENT } from '../rls/seed.ts';

const backend = useBackend();
const service = backend.service();
const c: Record<'aluno' | 'aluna' | 'pausado' | 'expirado' | 'novo' | 'alunoRival', SupabaseClient> = {} as never;

beforeAll(async () => {
  for (const who of ['aluno', 'aluna', 'pausado', 'expirado', 'novo', 'alunoRival'] as const) {
    c[who] = await backend.signIn(EMAIL[who]);
  }
});

const EXCEL_LESSONS = [LESSON.excelPreview, LESSON.excelVimeo, LESSON.excelUpload, LESSON.excelProcv, LESSON.excelText,
  LESSON.excelPivot, LESSON.excelQuiz];

describe('catalogue: own school, PUBLISHED only', () => {
  it('a student sees the published courses of their school only', async () => {
    const courses = await ok(c.aluno.from('courses').select('id, status, school_id'));
    expect(ids(courses)).toEqual([COURSE.excel, COURSE.marketing].sort());
    await none(c.aluno.from('courses').select('id').eq('id', COURSE.draft));
    await none(c.aluno.from('courses').select('id').eq('id', COURSE.archived));
    await none(c.aluno.from('courses').select('id').eq('id', COURSE.rival));
    const rival = await ok(c.alunoRival.from('courses').select('id'));
    expect(ids(rival)).toEqual([COURSE.rival]);
  });

  it('reads the outline (modules and lessons) of those courses in one request, not of others', async () => {
    const course = await ok(
      c.aluna.from('courses').select('id, modules(id, order_index, lessons(id, title, duration_sec, is_preview, video_type))')
        .eq('id', COURSE.excel).single(),
    );
    expect(course.modules).toHaveLength(3);
    const lessons = course.modules.flatMap((m: { lessons: { id: string }[] }) => m.lessons.map((l) => l.id)).sort();
    expect(lessons).toEqual([...EXCEL_LESSONS].sort());
    await none(c.aluna.from('modules').select('id').eq('id', MODULE.draft1));
    await none(c.aluna.from('lessons').select('id').eq('id', LESSON.draft));
    await none(c.aluna.from('modules').select('id').eq('id', MODULE.rival1));
    await none(c.aluna.from('lessons').select('id').eq('course_id', COURSE.rival));
    await none(c.alunoRival.from('lessons').select('id').eq('course_id', COURSE.excel));
  });

  it('reads only its own school row', async () => {
    const schools = await ok(c.aluno.from('schools').select('id, name, description'));
    expect(ids(schools)).toEqual([SCHOOL.demo]);
  });

  it('reads only the active announcements of its school', async () => {
    const a = await ok(c.aluno.from('announcements').select('id').order('priority', { ascending: false }));
    expect(a.map((r: { id: string }) => r.id)).toEqual([ANNOUNCEMENT.demoHigh, ANNOUNCEMENT.demoCourse]);
    const r = await ok(c.alunoRival.from('announcements').select('id'));
    expect(ids(r)).toEqual([ANNOUNCEMENT.rival]);
  });
});

describe('lesson content and materials need access', () => {
  it('an ACTIVE enrollment opens every lesson of the course', async () => {
    const rows = await ok(c.aluno.from('lesson_contents').select('lesson_id, content, video_url').in('lesson_id', EXCEL_LESSONS));
    expect(rows).toHaveLength(EXCEL_LESSONS.length);
    const upload = rows.find((r: { lesson_id: string }) => r.lesson_id === LESSON.excelUpload);
    expect(upload.video_url).toMatch(/formulas-basicas\.mp4$/);
    const mats = await ok(c.aluno.from('materials').select('id').eq('course_id', COURSE.excel));
    expect(ids(mats)).toEqual([MATERIAL.excelPdf, MATERIAL.excelLink, MATERIAL.excelCourseWide].sort());
  });

  it.each(['aluna', 'pausado', 'expirado'] as const)('%s (no valid enrollment) opens only preview lessons', async (who) => {
    const rows = await ok(c[who].from('lesson_contents').select('lesson_id'));
    expect(rows.map((r: { lesson_id: string }) => r.lesson_id).sort()).toEqual([LESSON.excelPreview, LESSON.marketingPreview].sort());
    await none(c[who].from('lesson_contents').select('content').eq('lesson_id', LESSON.excelProcv));
    await none(c[who].from('materials').select('id').eq('course_id', COURSE.excel));
    const mats = await ok(c[who].from('materials').select('id'));
    expect(ids(mats)).toEqual([MATERIAL.marketingPreview]);
  });

  it('a student of another school opens nothing of this one, not even previews', async () => {
    await none(c.alunoRival.from('lesson_contents').select('lesson_id').eq('lesson_id', LESSON.excelPreview));
    await none(c.alunoRival.from('materials').select('id').eq('id', MATERIAL.excelPdf));
    await none(c.alunoRival.from('lesson_comments').select('id').eq('lesson_id', LESSON.excelPreview));
    await none(c.aluno.from('lesson_contents').select('lesson_id').eq('lesson_id', LESSON.rivalPreview));
  });

  it('embedding contents into the outline still filters them', async () => {
    const lessons = await ok(c.aluna.from('lessons').select('id, lesson_contents(content)').eq('course_id', COURSE.excel));
    for (const l of lessons) {
      if (l.id === LESSON.excelPreview) expect(l.lesson_contents).not.toBeNull();
      else expect(l.lesson_contents).toBeNull();
    }
  });
});

describe('comments', () => {
  it('reads comments of accessible lessons with author name, never the author profile', async () => {
    const rows = await ok(c.aluna.from('lesson_comments').select('id, author_name, comment, user_id').eq('lesson_id', LESSON.excelPreview));
    expect(ids(rows)).toEqual([COMMENT.alunoPreview, COMMENT.instrutorPreview].sort());
    expect(rows.map((r: { author_name: string }) => r.author_name).sort()).toEqual(['Igor Instrutor', 'Lucas Aluno']);
    await none(c.aluna.from('lesson_comments').select('id').eq('id', COMMENT.alunoUpload));
    await none(c.aluna.from('profiles').select('cpf, phone, address').eq('id', USER.aluno));
    // Embedding the author's profile is filtered by the profiles policy.
    const embedded = await c.aluna.from('lesson_comments').select('id, profiles(cpf, phone)').eq('lesson_id', LESSON.excelPreview);
    if (!embedded.error) for (const r of embedded.data as { profiles: unknown }[]) expect(r.profiles).toBeNull();
  });

  it('comments as itself on accessible lessons only, with the author fields set by the server', async () => {
    const row = await ok(
      c.aluno.from('lesson_comments')
        .insert({ user_id: USER.aluno, lesson_id: LESSON.excelProcv, course_id: COURSE.rival, comment: ' Ótima aula ', author_name: 'Admin' })
        .select('comment, author_name, course_id').single(),
    );
    expect(row).toEqual({ comment: 'Ótima aula', author_name: 'Lucas Aluno', course_id: COURSE.excel });
    await refused(c.aluna.from('lesson_comments').insert({ user_id: USER.aluna, lesson_id: LESSON.excelProcv, comment: 'sem matrícula' }));
    await refused(c.pausado.from('lesson_comments').insert({ user_id: USER.pausado, lesson_id: LESSON.excelProcv, comment: 'pausado' }));
    await refused(c.aluno.from('lesson_comments').insert({ user_id: USER.aluna, lesson_id: LESSON.excelPreview, comment: 'falsidade' }));
    await refused(c.aluno.from('lesson_comments').insert({ user_id: USER.aluno, lesson_id: LESSON.rivalPreview, comment: 'invasão' }));
    await refused(c.aluno.from('lesson_comments').insert({ user_id: USER.aluno, lesson_id: LESSON.excelPreview, comment: '   ' }));
  });

  it("cannot edit or delete someone else's comment", async () => {
    await none(c.aluno.from('lesson_comments').update({ comment: 'editado' }).eq('id', COMMENT.instrutorPreview).select('id'));
    await none(c.aluno.from('lesson_comments').delete().eq('id', COMMENT.instrutorPreview).select('id'));
    await none(c.alunoRival.from('lesson_comments').delete().eq('id', COMMENT.alunoPreview).select('id'));
    const { data } = await service.from('lesson_comments').select('comment').eq('id', COMMENT.instrutorPreview).single();
    expect(data!.comment).toMatch(/^Que ótimo/);
  });

  it('edits its own comment in its first 15 minutes (issue 26), and deletes its own comment', async () => {
    const fresh = await ok(c.aluno.from('lesson_comments').insert({ user_id: USER.aluno, lesson_id: LESSON.excelPreview, comment: 'Rascunho' }).select('id').single());
    const own = await ok(c.aluno.from('lesson_comments').update({ comment: 'Revisado' }).eq('id', fresh.id).select('comment'));
    expect(own).toEqual([{ comment: 'Revisado' }]);
    // The seeded one was written 40 days ago.
    await refused(c.aluno.from('lesson_comments').update({ comment: 'Revisado' }).eq('id', COMMENT.alunoUpload).select('comment'));
    const { data: kept } = await service.from('lesson_comments').select('comment').eq('id', COMMENT.alunoUpload).single();
    expect(kept!.comment).toMatch(/^O vídeo ficou curtinho/);
    const del = await ok(c.aluno.from('lesson_comments').delete().eq('id', COMMENT.alunoUpload).select('id'));
    expect(del).toHaveLength(1);
  });
});

describe('progress and ratings', () => {
  it('reads only its own progress, ratings and enrollments', async () => {
    const p = await ok(c.aluno.from('progress').select('user_id'));
    expect(p.length).toBeGreaterThan(0);
    expect(new Set(p.map((r: { user_id: string }) => r.user_id))).toEqual(new Set([USER.aluno]));
    const r = await ok(c.aluno.from('lesson_ratings').select('user_id'));
    expect(new Set(r.map((x: { user_id: string }) => x.user_id))).toEqual(new Set([USER.aluno]));
    const e = await ok(c.aluno.from('enrollments').select('id, status'));
    expect(e).toEqual([{ id: ENROLLMENT.aluno, status: 'ACTIVE' }]);
    await none(c.aluna.from('progress').select('id').eq('user_id', USER.aluno));
    await none(c.aluna.from('enrollments').select('id').eq('user_id', USER.aluno));
  });

  it('upserts progress on an accessible lesson; completion is final', async () => {
    const first = await ok(
      c.aluno.from('progress')
        .upsert({ user_id: USER.aluno, course_id: COURSE.excel, lesson_id: LESSON.excelProcv, completed_at: new Date().toISOString() }, { onConflict: 'user_id,lesson_id' })
        .select('completed_at').single(),
    );
    expect(first.completed_at).not.toBeNull();
    const undo = await ok(
      c.aluno.from('progress')
        .upsert({ user_id: USER.aluno, course_id: COURSE.excel, lesson_id: LESSON.excelProcv, completed_at: null, last_position_sec: 300 }, { onConflict: 'user_id,lesson_id' })
        .select('completed_at, last_position_sec').single(),
    );
    expect(undo).toEqual({ completed_at: first.completed_at, last_position_sec: 300 });
    await none(c.aluno.from('progress').delete().eq('lesson_id', LESSON.excelProcv).select('id'));
    const { count } = await service.from('progress').select('id', { count: 'exact', head: true })
      .eq('user_id', USER.aluno).eq('lesson_id', LESSON.excelProcv);
    expect(count).toBe(1);
  });

  it('no progress or rating on lessons without access, nor for someone else', async () => {
    await refused(c.aluno.from('progress').insert({ user_id: USER.aluno, course_id: COURSE.marketing, lesson_id: LESSON.marketingPaid }));
    await refused(c.aluna.from('progress').insert({ user_id: USER.aluna, course_id: COURSE.excel, lesson_id: LESSON.excelProcv }));
    await refused(c.expirado.from('progress').insert({ user_id: USER.expirado, course_id: COURSE.excel, lesson_id: LESSON.excelProcv }));
    await refused(c.aluno.from('progress').insert({ user_id: USER.aluna, course_id: COURSE.excel, lesson_id: LESSON.excelPreview }));
    await none(c.aluna.from('progress').update({ last_position_sec: 1 }).eq('user_id', USER.aluno).select('id'));
    await refused(c.aluna.from('lesson_ratings').insert({ user_id: USER.aluna, course_id: COURSE.excel, lesson_id: LESSON.excelProcv, rating: 1 }));
    await refused(c.pausado.from('lesson_ratings').insert({ user_id: USER.pausado, course_id: COURSE.excel, lesson_id: LESSON.excelProcv, rating: 1 }));
    await refused(c.alunoRival.from('lesson_ratings').insert({ user_id: USER.alunoRival, course_id: COURSE.excel, lesson_id: LESSON.excelPreview, rating: 1 }));
    await none(c.aluna.from('lesson_ratings').update({ rating: 1 }).eq('user_id', USER.aluno).select('id'));
  });

  it('a student without enrollment still tracks preview lessons', async () => {
    await ok(c.aluna.from('progress').upsert({ user_id: USER.aluna, course_id: COURSE.excel, lesson_id: LESSON.excelPreview, last_position_sec: 20 }, { onConflict: 'user_id,lesson_id' }));
    await ok(c.aluna.from('lesson_ratings').upsert({ user_id: USER.aluna, course_id: COURSE.excel, lesson_id: LESSON.excelPreview, rating: 4 }, { onConflict: 'user_id,lesson_id' }));
  });

  it('rates 1-5, replacing the earlier rating', async () => {
    const r = await ok(
      c.aluno.from('lesson_ratings')
        .upsert({ user_id: USER.aluno, course_id: COURSE.excel, lesson_id: LESSON.excelPreview, rating: 3 }, { onConflict: 'user_id,lesson_id' })
        .select('rating'),
    );
    expect(r).toEqual([{ rating: 3 }]);
    await refused(c.aluno.from('lesson_ratings').upsert({ user_id: USER.aluno, course_id: COURSE.excel, lesson_id: LESSON.excelPreview, rating: 6 }, { onConflict: 'user_id,lesson_id' }));
  });
});

describe('own profile', () => {
  it('reads only its own profile', async () => {
    const rows = await ok(c.aluno.from('profiles').select('id, cpf'));
    expect(rows).toEqual([{ id: USER.aluno, cpf: '123.456.789-09' }]);
  });

  it('updates name, phone, cpf, address and avatar_url', async () => {
    // A photo of its own folder of the avatars bucket (security-avatar.test.ts has the rule).
    const avatar = `${backend.url}/storage/v1/object/public/avatars/${USER.aluna}/avatar.png?v=1`;
    const row = await ok(
      c.aluna.from('profiles')
        .update({ name: 'Mariana S.', phone: '11900000000', cpf: '', address: 'Rua Nova, 1', avatar_url: avatar })
        .eq('id', USER.aluna).select('name, cpf, address, avatar_url').single(),
    );
    expect(row).toEqual({ name: 'Mariana S.', cpf: null, address: 'Rua Nova, 1', avatar_url: avatar });
  });

  it('cannot change is_active, school_id, id or set must_change_password', async () => {
    await refused(c.aluno.from('profiles').update({ is_active: false }).eq('id', USER.aluno));
    await refused(c.aluno.from('profiles').update({ school_id: SCHOOL.rival }).eq('id', USER.aluno));
    await refused(c.aluno.from('profiles').update({ must_change_password: true }).eq('id', USER.aluno));
    await refused(c.aluno.from('profiles').update({ id: USER.aluna }).eq('id', USER.aluno));
    await c.aluno.from('profiles').update({ created_at: '2000-01-01T00:00:00Z' }).eq('id', USER.aluno);
    const { data } = await service.from('profiles').select('is_active, school_id, must_change_password, created_at').eq('id', USER.aluno).single();
    expect(data).toMatchObject({ is_active: true, school_id: SCHOOL.demo, must_change_password: false });
    expect(data!.created_at.startsWith('2000')).toBe(false);
  });

  it("cannot touch another user's profile", async () => {
    await none(c.aluno.from('profiles').update({ name: 'Hack' }).eq('id', USER.aluna).select('id'));
    await none(c.aluno.from('profiles').update({ is_active: true }).eq('id', USER.inativo).select('id'));
    await none(c.alunoRival.from('profiles').update({ name: 'Hack' }).eq('id', USER.aluno).select('id'));
    await refused(c.aluno.from('profiles').insert({ id: USER.aluna, name: 'x' }));
    await none(c.aluno.from('profiles').delete().eq('id', USER.aluno).select('id'));
  });

  it('the forced password change: a new password clears the flag; the user never sets it', async () => {
    const before = await ok(c.novo.from('profiles').select('must_change_password').eq('id', USER.novo).single());
    expect(before.must_change_password).toBe(true);
    const { error } = await c.novo.auth.updateUser({ password: 'novaSenha123', data: { must_change_password: false } });
    expect(error).toBeNull();
    const after = await ok(c.novo.from('profiles').select('must_change_password').eq('id', USER.novo).single());
    expect(after.must_change_password).toBe(false);
    await refused(c.novo.from('profiles').update({ must_change_password: true }).eq('id', USER.novo));
    // Metadata written by the user never reaches protected profile fields.
    await c.novo.auth.updateUser({ data: { must_change_password: true, school_id: SCHOOL.rival, is_active: false } });
    const { data } = await service.from('profiles').select('must_change_password, school_id, is_active').eq('id', USER.novo).single();
    expect(data).toEqual({ must_change_password: false, school_id: SCHOOL.demo, is_active: true });
  });

  it('the flag is never cleared through the profile or the metadata, only by a new password (issue 19)', async () => {
    await ok(service.from('profiles').update({ must_change_password: true }).eq('id', USER.pausado));
    await none(c.pausado.from('profiles').update({ must_change_password: false }).eq('id', USER.pausado).select('must_change_password'));
    await c.pausado.auth.updateUser({ data: { must_change_password: false } });
    const { data } = await service.from('profiles').select('must_change_password').eq('id', USER.pausado).single();
    expect(data).toEqual({ must_change_password: true });
    await ok(service.from('profiles').update({ must_change_password: false }).eq('id', USER.pausado));
  });
});

describe('administration is out of reach', () => {
  it('cannot enroll itself or anyone', async () => {
    await refused(c.aluna.from('enrollments').insert({ user_id: USER.aluna, course_id: COURSE.marketing, status: 'ACTIVE' }));
    await none(c.pausado.from('enrollments').update({ status: 'ACTIVE' }).eq('id', ENROLLMENT.pausado).select('id'));
    await none(c.expirado.from('enrollments').update({ expires_at: null }).eq('id', ENROLLMENT.expirado).select('id'));
    await none(c.aluno.from('enrollments').delete().eq('id', ENROLLMENT.aluno).select('id'));
    const { data } = await service.from('enrollments').select('status').eq('id', ENROLLMENT.pausado).single();
    expect(data!.status).toBe('PAUSED');
  });

  it('cannot grant itself a role or read roles', async () => {
    await refused(c.aluno.from('user_roles').insert({ user_id: USER.aluno, school_id: SCHOOL.demo, role: 'SCHOOL_ADMIN' }));
    await refused(c.aluno.from('user_roles').insert({ user_id: USER.aluno, school_id: null, role: 'SUPER_ADMIN' }));
    await none(c.aluno.from('user_roles').select('*'));
    await none(c.aluno.from('user_roles').update({ user_id: USER.aluno }).eq('user_id', USER.instrutor).select('id'));
  });

  it('cannot create, change or delete courses, modules, lessons, contents, materials, announcements', async () => {
    await refused(c.aluno.from('courses').insert({ school_id: SCHOOL.demo, title: 'Meu curso', slug: 'meu-curso' }));
    await none(c.aluno.from('courses').update({ status: 'PUBLISHED' }).eq('id', COURSE.draft).select('id'));
    await none(c.aluno.from('courses').update({ price: 0 }).eq('id', COURSE.excel).select('id'));
    await none(c.aluno.from('courses').delete().eq('id', COURSE.excel).select('id'));
    await refused(c.aluno.from('modules').insert({ course_id: COURSE.excel, title: 'x' }));
    await none(c.aluno.from('modules').delete().eq('id', MODULE.excel1).select('id'));
    await refused(c.aluno.from('lessons').insert({ module_id: MODULE.excel1, title: 'x' }));
    await none(c.aluno.from('lessons').update({ is_preview: true }).eq('id', LESSON.marketingPaid).select('id'));
    await none(c.aluno.from('lesson_contents').update({ content: 'hack' }).eq('lesson_id', LESSON.excelPreview).select('lesson_id'));
    await refused(c.aluno.from('materials').insert({ course_id: COURSE.excel, title: 'x', type: 'LINK', url: 'https://x.y' }));
    await none(c.aluno.from('materials').delete().eq('id', MATERIAL.excelLink).select('id'));
    await refused(c.aluno.from('announcements').insert({ school_id: SCHOOL.demo, title: 'x', body: 'y' }));
    await none(c.aluno.from('announcements').update({ is_active: false }).eq('id', ANNOUNCEMENT.demoHigh).select('id'));
    await none(c.aluno.from('schools').update({ name: 'Hack' }).eq('id', SCHOOL.demo).select('id'));
    const { data } = await service.from('courses').select('status, price').eq('id', COURSE.draft).single();
    expect(data!.status).toBe('DRAFT');
    const { data: lesson } = await service.from('lessons').select('is_preview').eq('id', LESSON.marketingPaid).single();
    expect(lesson!.is_preview).toBe(false);
  });

  it('sees no secrets and cannot call the secret RPCs', async () => {
    await none(c.aluno.from('integration_settings').select('*'));
    await none(c.aluno.from('system_config').select('*'));
    await refused(c.aluno.rpc('get_system_secret', { p_key: 'ASAAS_API_KEY' }));
    await refused(c.aluno.rpc('get_integration_secret', { p_school_id: SCHOOL.demo, p_provider: 'asaas' }));
    await refused(c.aluno.rpc('create_integration', { p_provider: 'asaas', p_environment: 'sandbox', p_api_key: 'abc' }));
    await refused(c.aluno.rpc('set_system_config', { p_key: 'ASAAS_API_KEY', p_value: 'abc' }));
    const { data } = await c.aluno.from('integration_settings').select('*');
    expect(JSON.stringify(data)).not.toContain(SECRETS[0]);
  });
});

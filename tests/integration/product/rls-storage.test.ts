// Storage buckets and their policies through supabase-js: who may write where, who may read private
// lesson videos and materials, and that no public bucket can be listed.
import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { openMaterialFile, signLessonVideo, signMaterial } from '../../../src/features/lessons/api/queries.ts';
import { useBackend } from '../harness.ts';
import { none, ok, refused } from '../rls/expect.ts';
import { COURSE, EMAIL, LESSON, OBJECT, SCHOOL, USER } from '../rls/seed.ts';

const backend = useBackend();
const c = {} as Record<'aluno' | 'aluna' | 'pausado' | 'expirado' | 'alunoRival' | 'admin' | 'instrutor' | 'rival' | 'super', SupabaseClient>;

const png = () => new Blob([new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 0])], { type: 'image/png' });
const mp4 = () => new Blob([new Uint8Array(64)], { type: 'video/mp4' });
const pdf = () => new Blob(['%PDF-1.4\n%%EOF\n'], { type: 'application/pdf' });

beforeAll(async () => {
  const emails = { aluno: EMAIL.aluno, aluna: EMAIL.aluna, pausado: EMAIL.pausado, expirado: EMAIL.expirado, alunoRival: EMAIL.alunoRival,
    admin: EMAIL.adminDemo, instrutor: EMAIL.instrutor, rival: EMAIL.adminRival, super: EMAIL.super };
  for (const [k, email] of Object.entries(emails)) c[k as keyof typeof c] = await backend.signIn(email);
});

describe('buckets', () => {
  it('exist with the limits and types of the spec', async () => {
    const { rows } = await backend.server.ctx.engine.query<{ id: string; public: boolean; file_size_limit: string; allowed_mime_types: string[] }>(
      'select id, public, file_size_limit::text, allowed_mime_types from storage.buckets order by id',
    );
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    // Exact types only: a wildcard like image/* would take image/svg+xml, which runs script (issue 19).
    expect(byId.avatars).toMatchObject({ public: true, file_size_limit: String(2 * 1024 * 1024), allowed_mime_types: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] });
    for (const r of rows) expect(r.allowed_mime_types.filter((t) => t.endsWith('/*'))).toEqual([]);
    expect(byId['school-banners']).toMatchObject({ public: true, file_size_limit: String(5 * 1024 * 1024) });
    expect(byId['course-thumbnails']).toMatchObject({ public: true, file_size_limit: String(5 * 1024 * 1024) });
    expect(byId['lesson-videos']).toMatchObject({ public: false, file_size_limit: String(500 * 1024 * 1024) });
    expect(byId['lesson-videos']!.allowed_mime_types.sort()).toEqual(['video/mp4', 'video/quicktime', 'video/webm', 'video/x-msvideo']);
    expect(byId['announcement-videos']).toMatchObject({ public: false, allowed_mime_types: ['video/mp4', 'video/webm'] });
    expect(byId['lesson-materials']).toMatchObject({ public: false, file_size_limit: String(20 * 1024 * 1024) });
    expect(byId['lesson-materials']!.allowed_mime_types).toContain('application/pdf');
  });
});

describe('avatars', () => {
  it('a user writes and replaces only its own avatar', async () => {
    await ok(c.aluno.storage.from('avatars').upload(`${USER.aluno}/avatar.png`, png(), { upsert: true }));
    await ok(c.aluno.storage.from('avatars').upload(`${USER.aluno}/avatar.png`, png(), { upsert: true }));
    await refused(c.aluno.storage.from('avatars').upload(`${USER.aluna}/avatar.png`, png(), { upsert: true }));
    await refused(c.aluno.storage.from('avatars').upload(`avatar.png`, png()));
    await none(c.aluna.storage.from('avatars').remove([`${USER.aluno}/avatar.png`]));
    const own = await ok(c.aluno.storage.from('avatars').list(USER.aluno));
    expect(own.map((f: { name: string }) => f.name)).toEqual(['avatar.png']);
  });

  it('nobody lists other users avatars', async () => {
    await none(c.aluna.storage.from('avatars').list(USER.aluno));
    await none(c.aluna.storage.from('avatars').list());
    await none(c.admin.storage.from('avatars').list(USER.aluno));
  });
});

describe('school images (school-banners, course-thumbnails)', () => {
  it('staff write in their school folder only', async () => {
    await ok(c.admin.storage.from('school-banners').upload(`${SCHOOL.demo}/banner-novo.png`, png()));
    await ok(c.instrutor.storage.from('course-thumbnails').upload(`${SCHOOL.demo}/thumb-novo.png`, png()));
    await refused(c.admin.storage.from('school-banners').upload(`${SCHOOL.rival}/banner.png`, png()));
    await refused(c.rival.storage.from('course-thumbnails').upload(`${SCHOOL.demo}/thumb.png`, png()));
    await refused(c.aluno.storage.from('school-banners').upload(`${SCHOOL.demo}/banner-aluno.png`, png()));
    await refused(c.admin.storage.from('school-banners').upload(`not-a-uuid/banner.png`, png()));
    await none(c.rival.storage.from('school-banners').remove([OBJECT.demoBanner]));
    await none(c.aluno.storage.from('course-thumbnails').remove([OBJECT.excelThumb]));
  });

  it('are not listable by students or other schools', async () => {
    for (const client of [c.aluno, c.alunoRival, c.rival]) {
      await none(client.storage.from('school-banners').list(SCHOOL.demo));
      await none(client.storage.from('course-thumbnails').list(SCHOOL.demo));
    }
  });

  it('keep to the bucket types', async () => {
    await refused(c.admin.storage.from('course-thumbnails').upload(`${SCHOOL.demo}/x.txt`, new Blob(['oi'], { type: 'text/plain' })));
  });
});

describe('lesson videos and materials (private)', () => {
  it('an enrolled student gets signed URLs of its course files from sign-lesson-file, never by signing them itself', async () => {
    expect((await fetch(await signLessonVideo(c.aluno, OBJECT.lessonVideo, 60))).status).toBe(200);
    // A PDF material comes stamped with the student's name, never signed (issue 39: material-stamp.test.ts).
    const pdf = await openMaterialFile(c.aluno, { file_path: OBJECT.lessonPdf, type: 'PDF' });
    expect('file' in pdf && pdf.file.size).toBeGreaterThan(0);
    await expect(signMaterial(c.aluno, OBJECT.lessonPdf, 60)).rejects.toThrow('Este PDF é baixado com o seu nome');
    await refused(c.aluno.storage.from('lesson-videos').createSignedUrl(OBJECT.lessonVideo, 60));
    await refused(c.aluno.storage.from('lesson-materials').download(OBJECT.lessonPdf));
  });

  it.each(['aluna', 'pausado', 'expirado', 'alunoRival', 'rival'] as const)('%s cannot reach paid lesson files', async (who) => {
    await refused(c[who].storage.from('lesson-videos').createSignedUrl(OBJECT.lessonVideo, 60));
    await refused(c[who].storage.from('lesson-materials').createSignedUrl(OBJECT.lessonPdf, 60));
    await refused(c[who].storage.from('lesson-materials').download(OBJECT.lessonPdf));
    await none(c[who].storage.from('lesson-videos').list(`${SCHOOL.demo}/${COURSE.excel}/${LESSON.excelUpload}`));
    await expect(signLessonVideo(c[who], OBJECT.lessonVideo, 60)).rejects.toThrow();
    await expect(signMaterial(c[who], OBJECT.lessonPdf, 60)).rejects.toThrow();
  });

  it('staff upload to their own courses only; files of a preview lesson open for every student of the school', async () => {
    const preview = `${SCHOOL.demo}/${COURSE.marketing}/${LESSON.marketingPreview}/aula.mp4`;
    await ok(c.instrutor.storage.from('lesson-videos').upload(preview, mp4()));
    const paid = `${SCHOOL.demo}/${COURSE.marketing}/${LESSON.marketingPaid}/aula.pdf`;
    await ok(c.admin.storage.from('lesson-materials').upload(paid, pdf()));
    // A student is signed a lesson's video only while it is the lesson's (issue 39): attach it.
    await ok(c.instrutor.from('lesson_contents').update({ video_url: preview }).eq('lesson_id', LESSON.marketingPreview).select('lesson_id'));
    const video = await fetch(await signLessonVideo(c.aluna, preview, 60));
    expect((await video.arrayBuffer()).byteLength).toBe(64);
    await expect(signMaterial(c.aluna, paid, 60)).rejects.toThrow();
    await expect(signLessonVideo(c.alunoRival, preview, 60)).rejects.toThrow();
    await refused(c.aluna.storage.from('lesson-materials').createSignedUrl(paid, 60));
    await refused(c.alunoRival.storage.from('lesson-videos').createSignedUrl(preview, 60));
    // Wrong school for the course, other school's course, a student, a course path that is not a course.
    await refused(c.admin.storage.from('lesson-videos').upload(`${SCHOOL.demo}/${COURSE.rival}/${LESSON.rivalPaid}/x.mp4`, mp4()));
    await refused(c.admin.storage.from('lesson-videos').upload(`${SCHOOL.rival}/${COURSE.rival}/${LESSON.rivalPaid}/x.mp4`, mp4()));
    await refused(c.rival.storage.from('lesson-materials').upload(`${SCHOOL.demo}/${COURSE.excel}/x.pdf`, pdf()));
    await refused(c.aluno.storage.from('lesson-materials').upload(`${SCHOOL.demo}/${COURSE.excel}/${LESSON.excelUpload}/meu.pdf`, pdf()));
    await refused(c.admin.storage.from('lesson-videos').upload(`${SCHOOL.demo}/qualquer/x.mp4`, mp4()));
    await none(c.aluno.storage.from('lesson-videos').remove([OBJECT.lessonVideo]));
    await none(c.rival.storage.from('lesson-materials').remove([OBJECT.lessonPdf]));
    const { rows } = await backend.server.ctx.engine.query('select 1 from storage.objects where name = $1', [OBJECT.lessonVideo]);
    expect(rows).toHaveLength(1);
  });

  it('staff and the super admin read their files without enrollment', async () => {
    await ok(c.instrutor.storage.from('lesson-videos').createSignedUrl(OBJECT.lessonVideo, 60));
    await ok(c.super.storage.from('lesson-materials').createSignedUrl(OBJECT.lessonPdf, 60));
  });
});

describe('announcement videos', () => {
  it('staff upload in their school folder; members of the school read it once a published announcement holds it; nobody else', async () => {
    const path = `${SCHOOL.demo}/aviso.mp4`;
    await ok(c.admin.storage.from('announcement-videos').upload(path, mp4()));
    await refused(c.rival.storage.from('announcement-videos').upload(`${SCHOOL.demo}/rival.mp4`, mp4()));
    await refused(c.aluno.storage.from('announcement-videos').upload(`${SCHOOL.demo}/aluno.mp4`, mp4()));
    // 20261128008500: a student reads the video of an announcement they may read, not any file of the folder.
    await refused(c.aluna.storage.from('announcement-videos').createSignedUrl(path, 60));
    await backend.sql(`insert into public.announcements (school_id, title, body, video_type, video_url) values ($1, 'Aviso', '<p>Aviso</p>', 'direct', $2)`, [SCHOOL.demo, path]);
    await ok(c.aluna.storage.from('announcement-videos').createSignedUrl(path, 60));
    await refused(c.alunoRival.storage.from('announcement-videos').createSignedUrl(path, 60));
    await refused(backend.anon().storage.from('announcement-videos').createSignedUrl(path, 60));
    await refused(c.admin.storage.from('announcement-videos').upload(`${SCHOOL.demo}/aviso.avi`, new Blob([new Uint8Array(8)], { type: 'video/x-msvideo' })));
  });
});

// The exact reads of the student pages (src/features/*/api/queries.ts), run as students without
// access to a paid lesson: the backend must give them neither the content, nor the video URL, nor
// the materials, nor a signed URL of the video or of a material file — whatever they ask for.
// (rls-student.test.ts covers the tables one by one; this file covers the page queries.)
import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { fetchCourseDetail, saveLessonPositionOnUnload } from '../../../src/features/courses/api/queries.ts';
import { fetchLessonBundle, openMaterialFile, signLessonVideo, signMaterial } from '../../../src/features/lessons/api/queries.ts';
import { fetchLessonComments } from '../../../src/features/discussions/api/queries.ts';
import { ANON_KEY, useBackend } from '../harness.ts';

const COURSE = 'c0000000-0000-4000-8000-000000000001';
const PREVIEW = 'e0000000-0000-4000-8000-000000000001';
const PAID_UPLOAD = 'e0000000-0000-4000-8000-000000000003';
const VIDEO = `5c000000-0000-4000-8000-000000000001/${COURSE}/${PAID_UPLOAD}/formulas-basicas.mp4`;
const PDF = `5c000000-0000-4000-8000-000000000001/${COURSE}/${PAID_UPLOAD}/apostila-formulas.pdf`;

const backend = useBackend();
const clients: Record<string, { client: SupabaseClient; id: string }> = {};

beforeAll(async () => {
  for (const who of ['aluno', 'aluna', 'pausado', 'expirado']) {
    const client = await backend.signIn(`${who}@escola-demo.com.br`);
    const { data } = await client.auth.getUser();
    clients[who] = { client, id: data.user!.id };
  }
});

describe('a paid lesson, through the lesson page query', () => {
  it('gives the enrolled student content, video path, materials and signed URLs (the control case)', async () => {
    const { client, id } = clients.aluno!;
    const bundle = await fetchLessonBundle(client, { lessonId: PAID_UPLOAD, userId: id });
    expect(bundle?.contents?.video_url).toBe(VIDEO);
    expect(bundle?.contents?.content).toContain('Fórmulas básicas');
    expect(bundle?.materials.map((m) => m.file_path)).toEqual([PDF]);
    const url = await signLessonVideo(client, VIDEO, 60);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('video/mp4');
    // The PDF material comes stamped with the student's name (issue 39), never as a signed URL.
    const pdf = await openMaterialFile(client, { file_path: PDF, type: 'PDF' });
    expect('file' in pdf && pdf.file.size).toBeGreaterThan(0);
  });

  for (const who of ['aluna', 'pausado', 'expirado']) {
    it(`refuses ${who} the content, the video URL, the materials and the comments`, async () => {
      const { client, id } = clients[who]!;
      const bundle = await fetchLessonBundle(client, { lessonId: PAID_UPLOAD, userId: id });
      // The outline row is visible (the lesson list is public to the school); nothing behind it is.
      expect(bundle).not.toBeNull();
      expect(bundle!.contents).toBeNull();
      expect(bundle!.materials).toEqual([]);
      expect(await fetchLessonComments(client, PAID_UPLOAD)).toEqual([]);
      // Asking the tables directly, or by another shape, changes nothing.
      const direct = await client.from('lesson_contents').select('content, video_url').eq('lesson_id', PAID_UPLOAD);
      expect(direct.error).toBeNull();
      expect(direct.data).toEqual([]);
      const byCourse = await client.from('materials').select('id, url, file_path').eq('course_id', COURSE);
      expect(byCourse.data ?? []).toEqual([]);
    });

    it(`refuses ${who} a signed URL of the lesson video and of its material file`, async () => {
      const { client } = clients[who]!;
      await expect(signLessonVideo(client, VIDEO, 60)).rejects.toMatchObject({ message: expect.any(String) });
      await expect(signMaterial(client, PDF)).rejects.toMatchObject({ message: expect.any(String) });
      await expect(openMaterialFile(client, { file_path: PDF, type: 'PDF' })).rejects.toThrow('Arquivo não encontrado');
      const download = await client.storage.from('lesson-videos').download(VIDEO);
      expect(download.data).toBeNull();
    });

    it(`lets ${who} open the preview lesson, and shows the course page with the enrollment state only`, async () => {
      const { client, id } = clients[who]!;
      const preview = await fetchLessonBundle(client, { lessonId: PREVIEW, userId: id });
      expect(preview?.contents?.video_url).toContain('youtube.com');
      const detail = await fetchCourseDetail(client, { courseId: COURSE, userId: id });
      expect(detail?.modules.flatMap((m) => m.lessons)).toHaveLength(7);
      // The outline carries no content or video URL at all.
      expect(JSON.stringify(detail)).not.toContain('formulas-basicas.mp4');
      expect(detail?.enrollments.length).toBe(who === 'aluna' ? 0 : 1);
    });
  }

  it('refuses progress, ratings and comments on a paid lesson to a student without access', async () => {
    const { client, id } = clients.aluna!;
    const progress = await client.from('progress').upsert({ user_id: id, lesson_id: PAID_UPLOAD, completed_at: new Date().toISOString() }, { onConflict: 'user_id,lesson_id' });
    expect(progress.error).not.toBeNull();
    const rating = await client.from('lesson_ratings').upsert({ user_id: id, lesson_id: PAID_UPLOAD, rating: 5 }, { onConflict: 'user_id,lesson_id' });
    expect(rating.error).not.toBeNull();
    const comment = await client.from('lesson_comments').insert({ user_id: id, lesson_id: PAID_UPLOAD, comment: 'oi' });
    expect(comment.error).not.toBeNull();
  });

  it('the last-chance save on closing the page (a keepalive fetch) keeps the position of a student with access, and nothing for one without', async () => {
    const positionOf = async (id: string) =>
      (await backend.sql<{ last_position_sec: number }>('select last_position_sec from public.progress where user_id = $1 and lesson_id = $2', [id, PAID_UPLOAD]))[0]?.last_position_sec ?? null;
    for (const who of ['aluno', 'aluna']) {
      const { client, id } = clients[who]!;
      const accessToken = (await client.auth.getSession()).data.session!.access_token;
      await saveLessonPositionOnUnload({ url: backend.url, anonKey: ANON_KEY, accessToken }, { userId: id, lessonId: PAID_UPLOAD, positionSec: 73.6 });
      expect(await positionOf(id)).toBe(who === 'aluno' ? 73 : null);
    }
  });
});

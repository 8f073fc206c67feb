// Issue 38: a lesson's video poster (lesson_contents.video_poster) is a frame of its uploaded video, an
// object path in the public course-thumbnails bucket, which the first visit preloads. It must be an image
// of the lesson's own school (never a URL: a poster may not send the school's students to another host),
// only the school's staff set it, and a new video without a new poster drops the old frame.
import { afterEach, describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { LESSON, OBJECT, SCHOOL } from '../rls/seed.ts';

const backend = useBackend();
const adminDemo = backend.signedIn('adminDemo');
const adminRival = backend.signedIn('adminRival');
const aluno = backend.signedIn('aluno');

const POSTER = `${SCHOOL.demo}/poster-aula-3.jpg`;
/** supabase/seed.sql's poster of this lesson, put back after each test. */
const SEEDED = `${SCHOOL.demo}/poster-formulas-basicas.jpg`;

const kept = async () =>
  (
    await backend.sql<{ video_url: string | null; video_poster: string | null }>(
      'select video_url, video_poster from public.lesson_contents where lesson_id = $1',
      [LESSON.excelUpload],
    )
  )[0]!;

const setPoster = (client: typeof adminDemo, poster: string | null, more: Record<string, unknown> = {}) =>
  client
    .from('lesson_contents')
    .update({ video_poster: poster, ...more })
    .eq('lesson_id', LESSON.excelUpload)
    .select('video_poster');

afterEach(async () => {
  await backend.sql('update public.lesson_contents set video_url = $2, video_poster = $3 where lesson_id = $1', [
    LESSON.excelUpload,
    OBJECT.lessonVideo,
    SEEDED,
  ]);
});

describe('lesson_contents.video_poster', () => {
  it('the school’s staff set it with the video; the enrolled student reads it with the lesson', async () => {
    const saved = await setPoster(adminDemo, POSTER);
    expect(saved.error).toBeNull();
    expect(saved.data).toEqual([{ video_poster: POSTER }]);

    const { data, error } = await aluno
      .from('lesson_contents')
      .select('video_url, video_poster')
      .eq('lesson_id', LESSON.excelUpload)
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({ video_url: OBJECT.lessonVideo, video_poster: POSTER });
  });

  it('refuses a URL, another school’s folder and a non-JPEG name, keeping what was there', async () => {
    await setPoster(adminDemo, POSTER);
    for (const poster of [
      'https://tracker.example/pixel.jpg',
      `${SCHOOL.rival}/poster.jpg`,
      `${SCHOOL.demo}/../${SCHOOL.rival}/poster.jpg`,
      `${SCHOOL.demo}/poster.svg`,
    ]) {
      const refused = await setPoster(adminDemo, poster);
      expect(refused.error?.code, poster).toBe('23514');
    }
    expect((await kept()).video_poster).toBe(POSTER);
  });

  it('a student and another school’s admin cannot set it (control: the school’s admin can)', async () => {
    const byStudent = await setPoster(aluno, POSTER);
    expect(byStudent.data ?? []).toEqual([]);
    const byRival = await setPoster(adminRival, `${SCHOOL.rival}/poster.jpg`);
    expect(byRival.data ?? []).toEqual([]);
    expect((await kept()).video_poster).toBe(SEEDED);

    expect((await setPoster(adminDemo, POSTER)).data).toEqual([{ video_poster: POSTER }]);
  });

  it('a new video without a new poster drops the old frame; a new video with its own poster keeps it', async () => {
    await setPoster(adminDemo, POSTER);
    const toYoutube = await adminDemo
      .from('lesson_contents')
      .update({ video_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' })
      .eq('lesson_id', LESSON.excelUpload)
      .select('video_poster');
    expect(toYoutube.data).toEqual([{ video_poster: null }]);

    const next = `${SCHOOL.demo}/poster-novo.jpg`;
    const withPoster = await setPoster(adminDemo, next, { video_url: OBJECT.lessonVideo });
    expect(withPoster.error).toBeNull();
    expect(await kept()).toEqual({ video_url: OBJECT.lessonVideo, video_poster: next });
  });
});

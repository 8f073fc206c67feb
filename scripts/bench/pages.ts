// `npx tsx scripts/bench/pages.ts`: the student pages on a large school. Seeds, into a fresh
// in-memory local-supabase, a school with 200 published courses (one with 20 modules × 10 lessons,
// the others 2 × 3), 5,000 students and 100,000 progress rows, then loads each page as a student
// through supabase-js with the SPA's own query functions (src/features/*/api/queries.ts), counting
// the requests and timing them (loopback round trips: server time plus a little HTTP).
// Not part of `npm test`. BENCH_RUNS (default 5) warm runs per page; the median is reported.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { startServer } from '../../local-supabase/server.ts';
import { fetchCatalog, fetchCourseDetail } from '../../src/features/courses/api/queries.ts';
import { fetchLessonBundle, signLessonVideo } from '../../src/features/lessons/api/queries.ts';
import { fetchLessonComments } from '../../src/features/discussions/api/queries.ts';
import { fetchBell } from '../../src/concepts/bell.ts';
import { BIG, SCHOOL, SEED, STUDENT_EMAIL, PASSWORD, countingFetch, measurePages, type Counter } from './large-school.ts';

async function main() {
  const t0 = performance.now();
  const server = await startServer({ port: 0 }, { fresh: true, quiet: true });
  const { engine } = server.ctx;
  await engine.exec(SEED);
  const [{ n: progressRows }] = (await engine.query<{ n: number }>('select count(*)::int n from public.progress')).rows;
  const [{ n: students }] = (await engine.query<{ n: number }>(`select count(*)::int n from public.profiles where school_id = '${SCHOOL}'`)).rows;
  const [{ n: courses }] = (await engine.query<{ n: number }>(`select count(*)::int n from public.courses where school_id = '${SCHOOL}'`)).rows;
  const [{ n: lessons }] = (await engine.query<{ n: number }>(`select count(*)::int n from public.lessons where course_id = '${BIG}'`)).rows;
  const upload = (await engine.query<{ id: string }>(`select id from public.lessons where course_id = '${BIG}' and video_type = 'upload'`)).rows[0]!.id;
  const videoPath = `${SCHOOL}/${BIG}/${upload}/aula.mp4`;
  await engine.query(`update public.lesson_contents set video_url = $1 where lesson_id = $2`, [videoPath, upload]);
  await engine.query(
    `insert into storage.objects (bucket_id, name, metadata) values ('lesson-videos', $1, '{"size": 1, "mimetype": "video/mp4"}')`,
    [videoPath],
  );
  console.log(`engine: ${engine.kind}; seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  console.log(`school: ${courses} published courses, big course ${lessons} lessons (20 × 10), ${students} students, ${progressRows} progress rows (all schools)`);

  const counter: Counter = { requests: 0, times: [] };
  const client: SupabaseClient = createClient(server.url, server.ctx.config.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { fetch: countingFetch(counter) },
  });
  const { data: auth, error } = await client.auth.signInWithPassword({ email: STUDENT_EMAIL, password: PASSWORD });
  if (error) throw error;
  const userId = auth.user.id;
  const bigLessons = (await fetchCourseDetail(client, { courseId: BIG, userId }))!.modules.flatMap((m) => m.lessons);

  const pages: [string, () => Promise<unknown>][] = [
    ['home (/)', () => Promise.all([fetchCatalog(client, { schoolId: SCHOOL }), fetchBell(client, SCHOOL)])],
    ['course (/course/:id, 20 modules × 10 lessons)', () => fetchCourseDetail(client, { courseId: BIG, userId })],
    [
      'lesson player, first open (uploaded video)',
      async () => {
        const [, bundle] = await Promise.all([
          fetchCourseDetail(client, { courseId: BIG, userId }),
          fetchLessonBundle(client, { lessonId: upload, userId }),
          fetchLessonComments(client, upload),
        ]);
        await signLessonVideo(client, bundle!.contents!.video_url!);
      },
    ],
    ['lesson player, next lesson (outline cached)', () => Promise.all([fetchLessonBundle(client, { lessonId: bigLessons[1]!.id, userId }), fetchLessonComments(client, bigLessons[1]!.id)])],
  ];

  await measurePages(pages, counter);
  counter.wire = [];
  // The answer as it came (the RPC's JSON), and what it cost on the wire.
  const { data: raw } = await client.rpc('student_catalog', { p_school_id: SCHOOL });
  const wire = counter.wire.reduce((a, b) => a + b, 0);
  const payload = JSON.stringify(raw).length;
  const catalog = await fetchCatalog(client, { schoolId: SCHOOL });
  console.log(
    `\nhome catalog payload: ${(payload / 1024).toFixed(1)} KiB of JSON for ${catalog.courses.length} courses shown ` +
      `(${catalog.availableTotal} not enrolled in all), ${(wire / 1024).toFixed(1)} KiB on the wire (gzip) — target ≤ 60 KiB`,
  );
  await server.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

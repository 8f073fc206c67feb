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
import { fetchActiveAnnouncements } from '../../src/features/announcements/api/queries.ts';

const RUNS = Number(process.env.BENCH_RUNS || 5);
const SCHOOL = '5c000000-0000-4000-8000-0000000b0001';
const BIG = 'c0000000-0000-4000-8000-0000000b0001';
const STUDENT_EMAIL = 'bench.aluno@escola-bench.com.br';
const PASSWORD = 'senha123';

// Node 20 has no WebSocket; supabase-js builds its (unused here) realtime client eagerly.
(globalThis as { WebSocket?: unknown }).WebSocket ??= class {};

const SEED = `
insert into public.schools (id, slug, name, member_area_name) values ('${SCHOOL}', 'escola-bench', 'Escola Bench', 'Bench');

-- 5,000 students (one password hash for all; the trigger creates their profiles).
with h as (select extensions.crypt('${PASSWORD}', extensions.gen_salt('bf')) as pw)
insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, confirmation_token,
                        recovery_token, email_change, email_change_token_new, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated',
       case when i = 1 then '${STUDENT_EMAIL}' else 'bench.' || i || '@escola-bench.com.br' end, h.pw, now(), '', '', '', '',
       '{"provider": "email", "providers": ["email"]}'::jsonb,
       jsonb_build_object('name', 'Aluno Bench ' || i, 'school_id', '${SCHOOL}'), now(), now()
from generate_series(1, 5000) i, h;

-- 200 published courses; the first is the big one.
insert into public.courses (id, school_id, title, slug, status, price, created_at, description, thumbnail_url, purchase_url)
select case when i = 1 then '${BIG}'::uuid else gen_random_uuid() end, '${SCHOOL}', 'Curso ' || i, 'curso-' || i, 'PUBLISHED', 100,
       now() - (i || ' minutes')::interval, 'Descrição do curso ' || i || '. ' || repeat('Texto de apresentação. ', 8),
       'http://localhost/thumb/' || i || '.jpg', case when i % 2 = 0 then 'https://pay.example/' || i end
from generate_series(1, 200) i;

insert into public.modules (course_id, title, description, order_index)
select c.id, 'Módulo ' || m, 'Descrição do módulo ' || m, m - 1
from public.courses c, generate_series(1, 20) m
where c.school_id = '${SCHOOL}' and (c.id = '${BIG}' or m <= 2);

insert into public.lessons (module_id, title, video_type, duration_sec, order_index, is_preview)
select mo.id, 'Aula ' || l, 'youtube', 600, l - 1, l = 1 and mo.order_index = 0
from public.modules mo join public.courses c on c.id = mo.course_id, generate_series(1, 10) l
where c.school_id = '${SCHOOL}' and (c.id = '${BIG}' or l <= 3);

update public.lesson_contents lc set content = '<p>' || repeat('Conteúdo da aula. ', 40) || '</p>',
  video_url = 'https://www.youtube.com/watch?v=aqz-KE-bpKQ'
from public.lessons l where l.id = lc.lesson_id and l.course_id in (select id from public.courses where school_id = '${SCHOOL}');

-- Every student enrolled in the big course; the bench student also in 9 more.
insert into public.enrollments (user_id, course_id, status)
select p.id, '${BIG}', 'ACTIVE' from public.profiles p where p.school_id = '${SCHOOL}';
insert into public.enrollments (user_id, course_id, status)
select p.id, c.id, 'ACTIVE' from public.profiles p join auth.users u on u.id = p.id,
  (select id from public.courses where school_id = '${SCHOOL}' and id <> '${BIG}' order by created_at desc limit 9) c
where u.email = '${STUDENT_EMAIL}';

-- 100,000 progress rows: 20 lessons of the big course per student, half of them completed.
insert into public.progress (user_id, lesson_id, completed_at, last_position_sec)
select p.id, l.id, case when l.rn % 2 = 0 then now() end, (l.rn * 7) % 600
from public.profiles p,
  (select id, row_number() over (order by id) rn from public.lessons where course_id = '${BIG}' order by id limit 20) l
where p.school_id = '${SCHOOL}';

-- An uploaded video in the big course (for the signed-URL request of the player).
update public.lessons set video_type = 'upload' where id = (select id from public.lessons where course_id = '${BIG}' order by id limit 1);
`;

interface Counter {
  requests: number;
  times: number[];
}

function countingFetch(counter: Counter): typeof fetch {
  return async (input, init) => {
    const start = performance.now();
    const res = await fetch(input, init);
    await res.clone().arrayBuffer();
    counter.requests++;
    counter.times.push(performance.now() - start);
    return res;
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

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
    ['home (/)', () => Promise.all([fetchCatalog(client, { schoolId: SCHOOL, userId }), fetchActiveAnnouncements(client, SCHOOL)])],
    ['course (/course/:id, 20 modules × 10 lessons)', () => fetchCourseDetail(client, { courseId: BIG, userId })],
    [
      'lesson player, first open (uploaded video)',
      async () => {
        const [, bundle] = await Promise.all([fetchCourseDetail(client, { courseId: BIG, userId }), fetchLessonBundle(client, { lessonId: upload, userId })]);
        await signLessonVideo(client, bundle!.contents!.video_url!);
      },
    ],
    ['lesson player, next lesson (outline cached)', () => fetchLessonBundle(client, { lessonId: bigLessons[1]!.id, userId })],
  ];

  console.log('');
  console.log('page | requests | time per request (ms) | page time (ms, median of ' + RUNS + ')');
  for (const [name, load] of pages) {
    const pageTimes: number[] = [];
    let requests = 0;
    let perRequest: number[] = [];
    for (let run = 0; run < RUNS + 1; run++) {
      counter.requests = 0;
      counter.times = [];
      const start = performance.now();
      await load();
      const elapsed = performance.now() - start;
      if (run === 0) continue; // warm-up
      pageTimes.push(elapsed);
      requests = counter.requests;
      perRequest = counter.times;
    }
    console.log(`${name} | ${requests} | ${perRequest.map((t) => t.toFixed(0)).join(' + ')} | ${median(pageTimes).toFixed(0)}`);
  }
  const catalog = await fetchCatalog(client, { schoolId: SCHOOL, userId });
  const payload = JSON.stringify(catalog).length;
  console.log(`\nhome catalog payload: ${(payload / 1024).toFixed(0)} KiB for ${catalog.length} courses`);
  await server.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

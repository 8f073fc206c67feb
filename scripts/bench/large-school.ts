// The large school both page benchmarks seed (scripts/bench/pages.ts, scripts/bench/admin-pages.ts):
// 200 published courses (one with 20 modules × 10 lessons, the others 2 × 3), 5,000 students enrolled
// in the big course, 100,000 progress rows; and a request-counting fetch for supabase-js.
export const RUNS = Number(process.env.BENCH_RUNS || 5);
export const SCHOOL = '5c000000-0000-4000-8000-0000000b0001';
export const BIG = 'c0000000-0000-4000-8000-0000000b0001';
export const STUDENT_EMAIL = 'bench.aluno@escola-bench.com.br';
export const PASSWORD = 'senha123';
/** Students of the school: 5,000; BENCH_STUDENTS makes it smaller (the benches' smoke runs in npm test, tests/benches). */
export const STUDENTS = Number(process.env.BENCH_STUDENTS || 5000);

// Node 20 has no WebSocket; supabase-js builds its (unused here) realtime client eagerly.
(globalThis as { WebSocket?: unknown }).WebSocket ??= class {};

export const SEED = `
insert into public.schools (id, slug, name, member_area_name) values ('${SCHOOL}', 'escola-bench', 'Escola Bench', 'Bench');

-- 5,000 students (one password hash for all; the trigger creates their profiles).
with h as (select extensions.crypt('${PASSWORD}', extensions.gen_salt('bf')) as pw)
insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, confirmation_token,
                        recovery_token, email_change, email_change_token_new, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated',
       case when i = 1 then '${STUDENT_EMAIL}' else 'bench.' || i || '@escola-bench.com.br' end, h.pw, now(), '', '', '', '',
       '{"provider": "email", "providers": ["email"]}'::jsonb,
       jsonb_build_object('name', 'Aluno Bench ' || i, 'school_id', '${SCHOOL}'), now(), now()
from generate_series(1, ${STUDENTS}) i, h;

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

/**
 * Rows on top of SEED to reach the sizes of issue 12 (20,000 enrollments, 20,000 comments): the school
 * of bench:load (scripts/bench/load-server.ts) and of the page budgets (tests/budgets).
 */
export const EXTRA = `
-- Three more enrollments per student besides the big course (~20,000 in all), spread over the other
-- 199 courses (the same spread as scripts/bench/admin-pages.ts).
insert into public.enrollments (user_id, course_id, status)
select p.id, c.id, case when (p.rn + c.rn) % 7 = 0 then 'PAUSED' else 'ACTIVE' end
from (select id, row_number() over (order by id) rn from public.profiles where school_id = '${SCHOOL}') p
join (select id, row_number() over (order by id) rn from public.courses where school_id = '${SCHOOL}' and id <> '${BIG}') c
  on c.rn in ((p.rn % 199) + 1, ((p.rn + 67) % 199) + 1, ((p.rn + 133) % 199) + 1)
on conflict do nothing;

-- 20,000 comments: four per student, on lessons of the big course (every student is enrolled there,
-- so every author has access), ~100 per lesson: the lesson page the load reads carries real threads.
-- Plain SQL: row-level security does not apply; the triggers set course_id and the author's name.
insert into public.lesson_comments (user_id, lesson_id, course_id, comment, created_at)
select p.id, l.id, '${BIG}', 'Comentário ' || (k + 1) || ' do aluno ' || p.rn || ': ' || repeat('muito boa a aula! ', 3),
       now() - ((p.rn * 4 + k) || ' seconds')::interval
from (select id, row_number() over (order by id) rn from public.profiles where school_id = '${SCHOOL}') p
cross join generate_series(0, 3) k
join (select id, row_number() over (order by id) - 1 rn from public.lessons where course_id = '${BIG}') l
  on l.rn = (p.rn * 4 + k) % 200;
`;

export interface Counter {
  requests: number;
  times: number[];
  /** Bytes on the wire per response (Content-Length: compressed when the server compressed it). */
  wire?: number[];
}

export function countingFetch(counter: Counter): typeof fetch {
  return async (input, init) => {
    const start = performance.now();
    const res = await fetch(input, init);
    await res.clone().arrayBuffer();
    counter.requests++;
    counter.times.push(performance.now() - start);
    counter.wire?.push(Number(res.headers.get('content-length') ?? 0));
    return res;
  };
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;


/**
 * Loads each page RUNS + 1 times (the first is a warm-up) and prints a table row per page: requests,
 * the time of each request and the median page time. Returns the medians and request counts.
 */
export async function measurePages(pages: [string, () => Promise<unknown>][], counter: Counter, timeHeader = 'page time'): Promise<{ name: string; requests: number; median: number }[]> {
  console.log('');
  console.log(`page | requests | time per request (ms) | ${timeHeader} (ms, median of ${RUNS})`);
  const results = [];
  for (const [name, load] of pages) {
    const times: number[] = [];
    let requests = 0;
    let perRequest: number[] = [];
    for (let run = 0; run < RUNS + 1; run++) {
      counter.requests = 0;
      counter.times = [];
      const start = performance.now();
      await load();
      const elapsed = performance.now() - start;
      if (run === 0) continue; // warm-up
      times.push(elapsed);
      requests = counter.requests;
      perRequest = counter.times;
    }
    console.log(`${name} | ${requests} | ${perRequest.map((t) => t.toFixed(0)).join(' + ')} | ${median(times).toFixed(0)}`);
    results.push({ name, requests, median: median(times) });
  }
  return results;
}

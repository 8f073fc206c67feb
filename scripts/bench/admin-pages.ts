// `npm run bench:admin`: the staff's people-and-numbers pages on a large school (issue 10). Seeds the
// large school of scripts/bench/large-school.ts (5,000 students, 100,000 progress rows), adds three more
// enrollments per student (20,000 in all) and a school admin, then loads each page's data as that admin
// with the SPA's own query functions, counting requests and timing the first page (median of BENCH_RUNS).
// Then (issue 25) spreads a year of activity over the days (accounts, enrollments, progress, activity
// days, 3,300 payments) and times each chart function as the admin: the dashboard's five for every
// period, the course reports on the big course (200 lessons), the student reports on one student.
// Not part of `npm test`. Targets: ≤ 3 requests and first page < 1 s per page; ≤ 200 ms per chart.
import { createClient } from '@supabase/supabase-js';
import { startServer } from '../../local-supabase/server.ts';
import { fetchAdminCourses } from '../../src/features/courses/api/admin-queries.ts';
import { fetchDashboardCounts } from '../../src/features/dashboard/api/queries.ts';
import { fetchEnrollments } from '../../src/features/enrollments/api/queries.ts';
import { fetchReportStudents, fetchReportSummary } from '../../src/features/reports/api/queries.ts';
import { fetchStudents } from '../../src/features/students/api/queries.ts';
import { BIG, PASSWORD, SCHOOL, SEED, STUDENTS, STUDENT_EMAIL, countingFetch, measurePages, type Counter } from './large-school.ts';

const ADMIN_EMAIL = 'bench.admin@escola-bench.com.br';

const ADMIN_SEED = `
-- Three more enrollments per student (20,000 in all), spread over the other courses.
insert into public.enrollments (user_id, course_id, status)
select p.id, c.id, case when (p.rn + c.rn) % 7 = 0 then 'PAUSED' else 'ACTIVE' end
from (select id, row_number() over (order by id) rn from public.profiles where school_id = '${SCHOOL}') p
join (select id, row_number() over (order by id) rn from public.courses where school_id = '${SCHOOL}' and id <> '${BIG}') c
  on c.rn in ((p.rn % 199) + 1, ((p.rn + 67) % 199) + 1, ((p.rn + 133) % 199) + 1)
on conflict do nothing;

with h as (select extensions.crypt('${PASSWORD}', extensions.gen_salt('bf')) as pw)
insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, confirmation_token,
                        recovery_token, email_change, email_change_token_new, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', '${ADMIN_EMAIL}', h.pw, now(), '', '', '', '',
       '{"provider": "email", "providers": ["email"]}'::jsonb, jsonb_build_object('name', 'Admin Bench', 'school_id', '${SCHOOL}'), now(), now()
from h;
insert into public.user_roles (user_id, school_id, role)
select u.id, '${SCHOOL}', 'SCHOOL_ADMIN' from auth.users u where u.email = '${ADMIN_EMAIL}';
`;

// A year of the school's life, spread over the days by each row's number (deterministic). Backdating
// is not a user's write, so no trigger runs (touch_timestamps would keep created_at and stamp updated_at
// now); the activity days are then written as the triggers and the migration's backfill write them.
const YEAR_SEED = `
begin;
set local session_replication_role = replica;

create temporary table bench_students on commit drop as
select p.id, row_number() over (order by p.id) as rn from public.profiles p
 where p.school_id = '${SCHOOL}' and not exists (select 1 from public.user_roles r where r.user_id = p.id);

-- Accounts created over the last 365 days, at any hour.
update public.profiles p set created_at = now() - ((s.rn * 7919) % 365) * interval '1 day' - ((s.rn * 13) % 24) * interval '1 hour'
  from bench_students s where s.id = p.id;

-- Each enrollment 0 to 59 days after the account (never in the future).
update public.enrollments e set created_at = least(now() - interval '1 minute', p.created_at + ((s.rn * 31 + hashtext(e.course_id::text)) % 60 + 60) % 60 * interval '1 day')
  from public.profiles p join bench_students s on s.id = p.id where p.id = e.user_id;

-- Progress: the student's lessons of the big course studied one after the other from the enrollment
-- on, a day or few apart; completed when completed. The furthest point of the 600 s video spread from
-- 0 to the end, never behind the last position.
with pr as (
  select pr.id, row_number() over (partition by pr.user_id order by pr.lesson_id) as k, s.rn, e.created_at as enrolled_at
    from public.progress pr join bench_students s on s.id = pr.user_id
    join public.enrollments e on e.user_id = pr.user_id and e.course_id = pr.course_id
), at as (
  select pr.id, pr.rn, pr.k, least(now() - interval '1 minute', pr.enrolled_at + (pr.k * 2 + (pr.rn + pr.k) % 4) * interval '1 day'
                                   + ((pr.rn * pr.k) % 600) * interval '1 minute') as at
    from pr
)
update public.progress p set created_at = at.at - interval '20 minutes', updated_at = at.at,
       completed_at = case when p.completed_at is not null then at.at end,
       max_position_sec = greatest(p.last_position_sec, case when p.completed_at is not null then 600 else ((at.rn * 37 + at.k * 101) % 601) end)
  from at where at.id = p.id;

-- Activity: the days of the progress rows, and 12 more sign-in days per student between joining and today.
delete from private.student_activity where school_id = '${SCHOOL}';
insert into private.student_activity (school_id, day, user_id)
select distinct '${SCHOOL}'::uuid, (x.at at time zone 'America/Sao_Paulo')::date, pr.user_id
  from public.progress pr join bench_students s on s.id = pr.user_id
  cross join lateral (values (pr.created_at), (pr.updated_at), (pr.completed_at)) x (at)
 where x.at is not null
union
select '${SCHOOL}'::uuid, ((p.created_at + ((s.rn * j * 7) % greatest(1, extract(day from now() - p.created_at)::int + 1)) * interval '1 day')
                            at time zone 'America/Sao_Paulo')::date, s.id
  from bench_students s join public.profiles p on p.id = s.id, generate_series(1, 12) j
on conflict do nothing;

-- 3,300 payments over the year: mostly received or confirmed, 1 in 20 refunded, some charged back,
-- pending or overdue (unpaid).
insert into public.payments (school_id, user_id, course_id, course_title, environment, billing_type, value, status,
                             paid_at, created_at, updated_at)
select '${SCHOOL}', s.id, c.id, c.title, 'sandbox', (array['PIX', 'BOLETO', 'CREDIT_CARD'])[1 + i % 3], 97 + (i % 5) * 50,
       x.status, case when x.status in ('PENDING', 'OVERDUE') then null else x.at + interval '2 hours' end, x.at, x.at
  from generate_series(1, 3300) i
  join bench_students s on s.rn = 1 + (i * 17) % ${STUDENTS}
  join (select id, title, row_number() over (order by id) as rn from public.courses where school_id = '${SCHOOL}') c on c.rn = 1 + i % 200
  cross join lateral (select case when i % 20 = 0 then 'REFUNDED' when i % 97 = 0 then 'CHARGEBACK'
                                  when i % 23 = 0 then 'PENDING' when i % 29 = 0 then 'OVERDUE'
                                  when i % 2 = 0 then 'CONFIRMED' else 'RECEIVED' end as status,
                             now() - ((i * 7919) % 365) * interval '1 day' - (i % 20) * interval '1 hour' as at) x;
commit;
`;

async function main() {
  const t0 = performance.now();
  const server = await startServer({ port: 0 }, { fresh: true, quiet: true });
  const { engine } = server.ctx;
  await engine.exec(SEED);
  await engine.exec(ADMIN_SEED);
  await engine.exec(YEAR_SEED);
  // What autovacuum does on a real database after such a load (PGlite has none): planner statistics
  // and the visibility map of index-only scans.
  await engine.exec('vacuum analyze');
  const count = async (sql: string) => (await engine.query<{ n: number }>(sql)).rows[0]!.n;
  const students = await count(`select count(*)::int n from public.profiles p where p.school_id = '${SCHOOL}' and not exists (select 1 from public.user_roles r where r.user_id = p.id)`);
  const enrollments = await count(`select count(*)::int n from public.enrollments e join public.courses c on c.id = e.course_id where c.school_id = '${SCHOOL}'`);
  const progress = await count(`select count(*)::int n from public.progress`);
  console.log(`engine: ${engine.kind}; seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const activity = await count(`select count(*)::int n from private.student_activity where school_id = '${SCHOOL}'`);
  const payments = await count(`select count(*)::int n from public.payments where school_id = '${SCHOOL}'`);
  console.log(`school: ${students} students, ${enrollments} enrollments, ${progress} progress rows, ${activity} activity days, ${payments} payments (a year)`);

  const counter: Counter = { requests: 0, times: [] };
  const client = createClient(server.url, server.ctx.config.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { fetch: countingFetch(counter) },
  });
  const { error } = await client.auth.signInWithPassword({ email: ADMIN_EMAIL, password: PASSWORD });
  if (error) throw error;

  const noFilter = { courseId: '', status: '' as const };
  // Each page's first paint: the route's own reads (the course list feeds the filters and dialogs).
  const pages: [string, () => Promise<unknown>][] = [
    ['dashboard (/admin)', () => fetchDashboardCounts(client, SCHOOL)],
    ['students (/admin/students), first page', () => Promise.all([fetchAdminCourses(client, SCHOOL), fetchStudents(client, SCHOOL, '', 0)])],
    ['students, search "Bench 4321"', () => fetchStudents(client, SCHOOL, 'Bench 4321', 0)],
    ['enrollments (/admin/enrollments), first page', () => Promise.all([fetchAdminCourses(client, SCHOOL), fetchEnrollments(client, SCHOOL, noFilter, 0)])],
    // Page 100 of the school of 5,000 (a smaller school, BENCH_STUDENTS, has fewer pages).
    ['enrollments, page 100 filtered by status', () => fetchEnrollments(client, SCHOOL, { courseId: '', status: 'ACTIVE' }, Math.min(100, Math.floor(STUDENTS / 50)))],
    [
      'reports (/admin/reports), cards + first tab page',
      () => Promise.all([fetchAdminCourses(client, SCHOOL), fetchReportSummary(client, SCHOOL, null), fetchReportStudents(client, SCHOOL, 'all', null, 0)]),
    ],
    ['reports, inactive tab filtered by the big course', () => fetchReportStudents(client, SCHOOL, 'inactive', BIG, 0)],
  ];

  const results = await measurePages(pages, counter, 'first page');
  const worst = Math.max(...results.map((r) => r.median));
  const maxRequests = Math.max(...results.map((r) => r.requests));
  console.log(`\nworst page: ${worst.toFixed(0)} ms (target < 1000), most requests: ${maxRequests} (target ≤ 3)`);

  // Issue 25: each chart's function, one request each, as the admin.
  const student = (await engine.query<{ id: string }>(`select id from public.profiles where email = '${STUDENT_EMAIL}'`)).rows[0]!.id;
  const rpc = (fn: string, args: Record<string, unknown>) => async () => {
    const { error: failed } = await client.rpc(fn as never, args as never);
    if (failed) throw new Error(`${fn}: ${failed.message}`);
  };
  const charts: [string, () => Promise<unknown>][] = [];
  for (const fn of ['admin_chart_new_students', 'admin_chart_new_enrollments', 'admin_chart_active_students', 'admin_chart_lessons_completed', 'admin_chart_revenue']) {
    for (const period of ['7d', '30d', '90d', '12m']) charts.push([`${fn} ${period}`, rpc(fn, { p_school_id: SCHOOL, p_period: period })]);
  }
  charts.push(
    ['admin_chart_course_funnel (big course, 200 lessons)', rpc('admin_chart_course_funnel', { p_course_id: BIG })],
    ['admin_chart_video_retention (big course)', rpc('admin_chart_video_retention', { p_course_id: BIG })],
    ['admin_chart_lesson_engagement (big course)', rpc('admin_chart_lesson_engagement', { p_course_id: BIG })],
    ['admin_chart_student_activity (12 weeks)', rpc('admin_chart_student_activity', { p_user_id: student })],
    ['admin_chart_student_activity (52 weeks)', rpc('admin_chart_student_activity', { p_user_id: student, p_weeks: 52 })],
    ['admin_student_course_progress (10 courses)', rpc('admin_student_course_progress', { p_user_id: student })],
  );
  const chartResults = await measurePages(charts, counter, 'time');
  const slowest = chartResults.reduce((a, b) => (b.median > a.median ? b : a));
  console.log(`\nslowest chart function: ${slowest.name}, ${slowest.median.toFixed(0)} ms (target ≤ 200)`);
  await server.close();
  if (worst >= 1000 || maxRequests > 3 || slowest.median > 200) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

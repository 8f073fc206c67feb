// `npm run bench:admin`: the staff's people-and-numbers pages on a large school (issue 10). Seeds the
// large school of scripts/bench/large-school.ts (5,000 students, 100,000 progress rows), adds three more
// enrollments per student (20,000 in all) and a school admin, then loads each page's data as that admin
// with the SPA's own query functions, counting requests and timing the first page (median of BENCH_RUNS).
// Not part of `npm test`. Targets: ≤ 3 requests and first page < 1 s per page.
import { createClient } from '@supabase/supabase-js';
import { startServer } from '../../local-supabase/server.ts';
import { fetchAdminCourses } from '../../src/features/courses/api/admin-queries.ts';
import { fetchDashboardCounts } from '../../src/features/dashboard/api/queries.ts';
import { fetchEnrollments } from '../../src/features/enrollments/api/queries.ts';
import { fetchReportStudents, fetchReportSummary } from '../../src/features/reports/api/queries.ts';
import { fetchStudents } from '../../src/features/students/api/queries.ts';
import { BIG, PASSWORD, SCHOOL, SEED, countingFetch, measurePages, type Counter } from './large-school.ts';

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

async function main() {
  const t0 = performance.now();
  const server = await startServer({ port: 0 }, { fresh: true, quiet: true });
  const { engine } = server.ctx;
  await engine.exec(SEED);
  await engine.exec(ADMIN_SEED);
  const count = async (sql: string) => (await engine.query<{ n: number }>(sql)).rows[0]!.n;
  const students = await count(`select count(*)::int n from public.profiles p where p.school_id = '${SCHOOL}' and not exists (select 1 from public.user_roles r where r.user_id = p.id)`);
  const enrollments = await count(`select count(*)::int n from public.enrollments e join public.courses c on c.id = e.course_id where c.school_id = '${SCHOOL}'`);
  const progress = await count(`select count(*)::int n from public.progress`);
  console.log(`engine: ${engine.kind}; seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  console.log(`school: ${students} students, ${enrollments} enrollments, ${progress} progress rows`);

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
    ['enrollments, page 100 filtered by status', () => fetchEnrollments(client, SCHOOL, { courseId: '', status: 'ACTIVE' }, 100)],
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
  await server.close();
  if (worst >= 1000 || maxRequests > 3) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

-- Issue 25, the school's numbers in pictures: one function per chart, computed here with the caller's
-- school checked first. docs/analytics.md has the design (the contract the admin screens build on).
-- Days, weeks and months are São Paulo's. "Students" are the school's accounts without a role, as in
-- private.report_students and admin_dashboard_counts.
set local lock_timeout = '5s';

-- ── progress.max_position_sec: the furthest point of the video reached ───────────────────────
-- last_position_sec goes back when someone rewatches the start; video retention needs the furthest.
alter table public.progress add column max_position_sec integer not null default 0
  constraint progress_max_position_sec_check check (max_position_sec >= 0);

-- Existing rows start from their last position. Not a student's write: no trigger runs (updated_at,
-- the reports' last access, stays as it was).
alter table public.progress disable trigger user;
update public.progress set max_position_sec = last_position_sec where last_position_sec > 0;
alter table public.progress enable trigger user;

-- Kept by the database: whatever a client sends for max_position_sec is ignored.
create function private.progress_keep_max_position() returns trigger
language plpgsql set search_path = '' as $$
begin
  new.max_position_sec := greatest(new.last_position_sec, case when tg_op = 'UPDATE' then old.max_position_sec else 0 end);
  return new;
end $$;
revoke all on function private.progress_keep_max_position() from public, anon, authenticated;
create trigger progress_keep_max_position before insert or update on public.progress
  for each row execute function private.progress_keep_max_position();

-- ── The per-day activity record ──────────────────────────────────────────────────────────────
-- One row per account, school and São Paulo day on which the account signed in or studied (saved
-- progress). "Active students" of the dashboard counts these. Private: no API role reads it; written
-- only by the triggers below (and the backfill), as the functions' owner.
create table private.student_activity (
  school_id uuid not null references public.schools (id) on delete cascade,
  day date not null,
  user_id uuid not null references public.profiles (id) on delete cascade,
  -- Also the index of the chart: a school's days in order, each day's accounts.
  primary key (school_id, day, user_id)
);
alter table private.student_activity enable row level security;
revoke all on private.student_activity from public, anon, authenticated;
create index student_activity_user_id_idx on private.student_activity (user_id);

-- The day's row of an account of a school (a super admin, without a school, has none).
create function private.record_activity(p_user_id uuid, p_at timestamptz) returns void
language sql security definer set search_path = '' as $$
  insert into private.student_activity (school_id, day, user_id)
  select p.school_id, (p_at at time zone 'America/Sao_Paulo')::date, p.id
    from public.profiles p where p.id = p_user_id and p.school_id is not null and p_at is not null
  on conflict do nothing
$$;
revoke all on function private.record_activity(uuid, timestamptz) from public, anon, authenticated;

-- Studying: every progress write is the student's day (updated_at: the time of the write, which the
-- database sets on every update). A write by someone else (publish_quiz, run by staff, re-opening a
-- lesson) is not the student studying.
create function private.progress_record_activity() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if auth.uid() is null or auth.uid() = new.user_id then
    perform private.record_activity(new.user_id, new.updated_at);
  end if;
  return null;
end $$;
revoke all on function private.progress_record_activity() from public, anon, authenticated;
create trigger progress_record_activity after insert or update on public.progress
  for each row execute function private.progress_record_activity();

-- Signing in: GoTrue sets last_sign_in_at on every sign-in.
create function private.sign_in_record_activity() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.record_activity(new.id, new.last_sign_in_at);
  return null;
end $$;
revoke all on function private.sign_in_record_activity() from public, anon, authenticated;
create trigger on_auth_user_signed_in after update of last_sign_in_at on auth.users
  for each row when (new.last_sign_in_at is distinct from old.last_sign_in_at)
  execute function private.sign_in_record_activity();

-- Backfill: the days the rows we have already show (progress started, saved, completed; last sign-in).
insert into private.student_activity (school_id, day, user_id)
select distinct p.school_id, (x.at at time zone 'America/Sao_Paulo')::date, p.id
  from public.progress pr
  join public.profiles p on p.id = pr.user_id
  cross join lateral (values (pr.created_at), (pr.updated_at), (pr.completed_at)) x (at)
 where p.school_id is not null and x.at is not null
union
select p.school_id, (u.last_sign_in_at at time zone 'America/Sao_Paulo')::date, p.id
  from auth.users u join public.profiles p on p.id = u.id
 where p.school_id is not null and u.last_sign_in_at is not null
on conflict do nothing;

-- ── Indexes of the dashboard's time ranges ──────────────────────────────────────────────────
-- Revenue: a school's payments by the day they were paid.
create index payments_school_paid_at_idx on public.payments (school_id, paid_at) where paid_at is not null;
-- New enrollments: each course's enrollments by creation time.
create index enrollments_course_id_created_at_idx on public.enrollments (course_id, created_at);
-- Lessons completed: each course's completions by time.
create index progress_course_id_completed_at_idx on public.progress (course_id, completed_at) where completed_at is not null;

-- ── The period arithmetic of the five dashboard charts ───────────────────────────────────────
-- One row per bucket of the period ('bucket', oldest first), one for the whole period ('total') and
-- one for the period before it ('previous'), each with its São Paulo days (first_day..last_day) and the
-- same range as instants [from_at, to_at).
--   '7d' / '30d': the last 7 / 30 days including today, a bucket per day;
--   '90d': the last 90 days, a bucket per ISO week (Monday), the first starting on the period's first day;
--   '12m': the current month and the 11 before, a bucket per month.
-- The previous period has the same length just before ('12m': the 12 months before).
create function private.chart_ranges(p_period text, p_now timestamptz)
returns table (kind text, unit text, first_day date, last_day date, from_at timestamptz, to_at timestamptz)
language plpgsql stable set search_path = '' as $$
declare
  v_today date := (p_now at time zone 'America/Sao_Paulo')::date;
  v_unit text;
  v_first date;
  v_prev date;
begin
  case p_period
    when '7d' then v_unit := 'day'; v_first := v_today - 6; v_prev := v_first - 7;
    when '30d' then v_unit := 'day'; v_first := v_today - 29; v_prev := v_first - 30;
    when '90d' then v_unit := 'week'; v_first := v_today - 89; v_prev := v_first - 90;
    when '12m' then v_unit := 'month'; v_first := (date_trunc('month', v_today::timestamp) - interval '11 months')::date;
                    v_prev := (v_first - interval '12 months')::date;
    else raise exception 'invalid period' using errcode = '22023';
  end case;
  return query
  with starts as (
    select v_first as d
    union
    select s::date from generate_series(date_trunc(v_unit, v_first::timestamp) + ('1 ' || v_unit)::interval,
                                        v_today::timestamp, ('1 ' || v_unit)::interval) s
  ), ranges as (
    select 'bucket' as kind, s.d as first_day, coalesce(lead(s.d) over (order by s.d), v_today + 1) - 1 as last_day from starts s
    union all select 'total', v_first, v_today
    union all select 'previous', v_prev, v_first - 1
  )
  select r.kind, v_unit, r.first_day, r.last_day,
         r.first_day::timestamp at time zone 'America/Sao_Paulo', (r.last_day + 1)::timestamp at time zone 'America/Sao_Paulo'
    from ranges r;
end $$;
revoke all on function private.chart_ranges(text, timestamptz) from public, anon, authenticated;

-- The charts' jsonb from chart_ranges' rows, each with its `value`:
-- {unit, from, to, points: [{start, value}], total, previous_total}.
create function private.chart_json(p_ranges jsonb) returns jsonb
language sql immutable set search_path = '' as $$
  select jsonb_build_object(
           'unit', t.r -> 'unit', 'from', t.r -> 'first_day', 'to', t.r -> 'last_day',
           'points', (select coalesce(jsonb_agg(jsonb_build_object('start', b -> 'first_day', 'value', b -> 'value')
                                                order by b ->> 'first_day'), '[]'::jsonb)
                        from jsonb_array_elements(p_ranges) b where b ->> 'kind' = 'bucket'),
           'total', t.r -> 'value',
           'previous_total', (select p -> 'value' from jsonb_array_elements(p_ranges) p where p ->> 'kind' = 'previous'))
    from jsonb_array_elements(p_ranges) t (r)
   where t.r ->> 'kind' = 'total'
$$;
revoke all on function private.chart_json(jsonb) from public, anon, authenticated;

-- ── Dashboard: five charts, same arguments, same shape ──────────────────────────────────────
-- The school a staff function works on: the one asked for (the caller's own when null), when the
-- caller is its staff; 'not allowed' otherwise.
create function private.staff_school(p_school_id uuid) returns uuid
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
begin
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return v_school;
end $$;
revoke all on function private.staff_school(uuid) from public, anon, authenticated;

-- New students: the school's students by the day their account was created.
create function public.admin_chart_new_students(p_school_id uuid, p_period text, p_now timestamptz default now())
returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid;
begin
  perform private.refuse_while_password_change_pending();
  v_school := private.staff_school(p_school_id);
  return private.chart_json((
    select jsonb_agg(to_jsonb(r) || jsonb_build_object('value', (
             select count(*) from public.profiles p
              where p.school_id = v_school and p.created_at >= r.from_at and p.created_at < r.to_at
                and not exists (select 1 from public.user_roles ur where ur.user_id = p.id))))
      from private.chart_ranges(p_period, p_now) r));
end $$;

-- New enrollments: enrollments in the school's courses, any status, by creation day.
create function public.admin_chart_new_enrollments(p_school_id uuid, p_period text, p_now timestamptz default now())
returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid;
begin
  perform private.refuse_while_password_change_pending();
  v_school := private.staff_school(p_school_id);
  return private.chart_json((
    select jsonb_agg(to_jsonb(r) || jsonb_build_object('value', (
             select count(*) from public.enrollments e join public.courses c on c.id = e.course_id
              where c.school_id = v_school and e.created_at >= r.from_at and e.created_at < r.to_at)))
      from private.chart_ranges(p_period, p_now) r));
end $$;

-- Active students: distinct students with a day of activity (signed in or studied) in the bucket;
-- the total is the distinct students of the whole period, not the sum of the buckets.
create function public.admin_chart_active_students(p_school_id uuid, p_period text, p_now timestamptz default now())
returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid;
begin
  perform private.refuse_while_password_change_pending();
  v_school := private.staff_school(p_school_id);
  return private.chart_json((
    select jsonb_agg(to_jsonb(r) || jsonb_build_object('value', (
             select count(distinct a.user_id) from private.student_activity a
              where a.school_id = v_school and a.day between r.first_day and r.last_day
                and not exists (select 1 from public.user_roles ur where ur.user_id = a.user_id))))
      from private.chart_ranges(p_period, p_now) r));
end $$;

-- Lessons completed: students' progress rows completed in the bucket (a quiz lesson completes only
-- when its quiz is passed).
create function public.admin_chart_lessons_completed(p_school_id uuid, p_period text, p_now timestamptz default now())
returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid;
begin
  perform private.refuse_while_password_change_pending();
  v_school := private.staff_school(p_school_id);
  return private.chart_json((
    select jsonb_agg(to_jsonb(r) || jsonb_build_object('value', (
             select count(*) from public.progress p join public.courses c on c.id = p.course_id
              where c.school_id = v_school and p.completed_at >= r.from_at and p.completed_at < r.to_at
                and not exists (select 1 from public.user_roles ur where ur.user_id = p.user_id))))
      from private.chart_ranges(p_period, p_now) r));
end $$;

-- Revenue: what the school's paid payments brought, by the day they were paid, net of refunds and
-- chargebacks (the "net" of admin_sales_totals), in reais with 2 decimals.
create function public.admin_chart_revenue(p_school_id uuid, p_period text, p_now timestamptz default now())
returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid;
begin
  perform private.refuse_while_password_change_pending();
  v_school := private.staff_school(p_school_id);
  return private.chart_json((
    select jsonb_agg(to_jsonb(r) || jsonb_build_object('value', (
             select coalesce(sum(p.value), 0.00) from public.payments p
              where p.school_id = v_school and p.paid_at >= r.from_at and p.paid_at < r.to_at
                and p.status not in ('REFUNDED', 'CHARGEBACK'))))
      from private.chart_ranges(p_period, p_now) r));
end $$;

-- ── Reports, per course ──────────────────────────────────────────────────────────────────────
-- The course's school, when the caller is its staff; 'not allowed' otherwise (an unknown course too).
create function private.chart_course_school(p_course_id uuid) returns uuid
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid;
begin
  select c.school_id into v_school from public.courses c where c.id = p_course_id;
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return v_school;
end $$;
revoke all on function private.chart_course_school(uuid) from public, anon, authenticated;

-- Completion funnel: each lesson in course order (module, then lesson; position from 1), the students
-- enrolled in the course (any status), how many of them started it (a progress row) and completed it.
create function public.admin_chart_course_funnel(p_course_id uuid)
returns table (lesson_id uuid, lesson_position integer, module_title text, lesson_title text,
               enrolled bigint, started bigint, completed bigint)
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.refuse_while_password_change_pending();
  perform private.chart_course_school(p_course_id);
  return query
  with enrolled as (
    select e.user_id from public.enrollments e
     where e.course_id = p_course_id and not exists (select 1 from public.user_roles ur where ur.user_id = e.user_id)
  ), per_lesson as (
    select pr.lesson_id, count(*) as started, count(pr.completed_at) as completed
      from public.progress pr join enrolled en on en.user_id = pr.user_id
     where pr.course_id = p_course_id
     group by pr.lesson_id
  )
  select l.id, (row_number() over (order by m.order_index, m.id, l.order_index, l.id))::integer, m.title, l.title,
         (select count(*) from enrolled), coalesce(pl.started, 0), coalesce(pl.completed, 0)
    from public.lessons l
    join public.modules m on m.id = l.module_id
    left join per_lesson pl on pl.lesson_id = l.id
   where l.course_id = p_course_id
   order by 2;
end $$;

-- Video retention: the course's lessons with a video of known length (position as in the funnel),
-- the enrolled students who played it (max_position_sec > 0), and how many of them reached 25, 50, 75
-- and 90% of it.
create function public.admin_chart_video_retention(p_course_id uuid)
returns table (lesson_id uuid, lesson_position integer, lesson_title text, duration_sec integer, viewers bigint,
               reached_25 bigint, reached_50 bigint, reached_75 bigint, reached_90 bigint)
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.refuse_while_password_change_pending();
  perform private.chart_course_school(p_course_id);
  return query
  with enrolled as (
    select e.user_id from public.enrollments e
     where e.course_id = p_course_id and not exists (select 1 from public.user_roles ur where ur.user_id = e.user_id)
  ), lessons as (
    select l.id, (row_number() over (order by m.order_index, m.id, l.order_index, l.id))::integer as pos, l.title,
           l.duration_sec, l.video_type
      from public.lessons l join public.modules m on m.id = l.module_id
     where l.course_id = p_course_id
  ), per_lesson as (
    select pr.lesson_id, count(*) as viewers,
           count(*) filter (where pr.max_position_sec * 100 >= 25 * l.duration_sec) as r25,
           count(*) filter (where pr.max_position_sec * 100 >= 50 * l.duration_sec) as r50,
           count(*) filter (where pr.max_position_sec * 100 >= 75 * l.duration_sec) as r75,
           count(*) filter (where pr.max_position_sec * 100 >= 90 * l.duration_sec) as r90
      from public.progress pr
      join enrolled en on en.user_id = pr.user_id
      join public.lessons l on l.id = pr.lesson_id
     where pr.course_id = p_course_id and pr.max_position_sec > 0
     group by pr.lesson_id
  )
  select l.id, l.pos, l.title, l.duration_sec, coalesce(pl.viewers, 0), coalesce(pl.r25, 0), coalesce(pl.r50, 0),
         coalesce(pl.r75, 0), coalesce(pl.r90, 0)
    from lessons l left join per_lesson pl on pl.lesson_id = l.id
   where l.video_type <> 'none' and l.duration_sec > 0
   order by l.pos;
end $$;

-- Engagement: each lesson's average rating (1 decimal, null without ratings), ratings and comments
-- (every one of the lesson, as the report's cards count them). Position as in the funnel.
create function public.admin_chart_lesson_engagement(p_course_id uuid)
returns table (lesson_id uuid, lesson_position integer, lesson_title text, average_rating numeric, ratings bigint,
               comments bigint)
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.refuse_while_password_change_pending();
  perform private.chart_course_school(p_course_id);
  return query
  select l.id, (row_number() over (order by m.order_index, m.id, l.order_index, l.id))::integer, l.title,
         r.average, coalesce(r.n, 0), coalesce(cm.n, 0)
    from public.lessons l
    join public.modules m on m.id = l.module_id
    left join (select lr.lesson_id, round(avg(lr.rating), 1) as average, count(*) as n
                 from public.lesson_ratings lr where lr.course_id = p_course_id group by lr.lesson_id) r on r.lesson_id = l.id
    left join (select lc.lesson_id, count(*) as n
                 from public.lesson_comments lc where lc.course_id = p_course_id group by lc.lesson_id) cm on cm.lesson_id = l.id
   where l.course_id = p_course_id
   order by 2;
end $$;

-- ── Reports, per student ─────────────────────────────────────────────────────────────────────
-- The student's school, when the caller is its staff; 'not allowed' otherwise (an unknown account too).
create function private.chart_student_school(p_user_id uuid) returns uuid
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid;
begin
  select p.school_id into v_school from public.profiles p where p.id = p_user_id;
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return v_school;
end $$;
revoke all on function private.chart_student_school(uuid) from public, anon, authenticated;

-- Lessons the student completed per week (São Paulo Mondays), the last p_weeks (1..52) including this
-- one, oldest first, zeros included.
create function public.admin_chart_student_activity(p_user_id uuid, p_weeks integer default 12, p_now timestamptz default now())
returns table (week_start date, completed bigint)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_monday date := date_trunc('week', (p_now at time zone 'America/Sao_Paulo'))::date;
begin
  perform private.refuse_while_password_change_pending();
  perform private.chart_student_school(p_user_id);
  if p_weeks is null or p_weeks not between 1 and 52 then
    raise exception 'invalid weeks' using errcode = '22023';
  end if;
  return query
  select w.d::date,
         (select count(*) from public.progress p
           where p.user_id = p_user_id
             and p.completed_at >= w.d at time zone 'America/Sao_Paulo'
             and p.completed_at < (w.d + interval '7 days') at time zone 'America/Sao_Paulo')
    from generate_series((v_monday - 7 * (p_weeks - 1))::timestamp, v_monday::timestamp, interval '7 days') w (d)
   order by 1;
end $$;

-- Every enrollment of the student with its progress: lessons completed of the course's lessons now,
-- rounded to a whole percent (as Reports → Alunos counts it; a quiz lesson completes only when its quiz
-- is passed), and the last progress saved in it.
create function public.admin_student_course_progress(p_user_id uuid)
returns table (course_id uuid, course_title text, status text, completed bigint, total bigint, percent integer,
               last_activity timestamptz)
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.refuse_while_password_change_pending();
  perform private.chart_student_school(p_user_id);
  return query
  select c.id, c.title, e.status, d.completed, t.total,
         case when t.total > 0 then round(100.0 * d.completed / t.total)::integer else 0 end,
         d.last_at
    from public.enrollments e
    join public.courses c on c.id = e.course_id
    cross join lateral (select count(*) as total from public.lessons l where l.course_id = c.id) t
    cross join lateral (select count(p.completed_at) as completed, max(p.updated_at) as last_at
                          from public.progress p where p.user_id = e.user_id and p.course_id = e.course_id) d
   where e.user_id = p_user_id
   order by c.title, c.id;
end $$;

revoke all on function
  public.admin_chart_new_students(uuid, text, timestamptz), public.admin_chart_new_enrollments(uuid, text, timestamptz),
  public.admin_chart_active_students(uuid, text, timestamptz), public.admin_chart_lessons_completed(uuid, text, timestamptz),
  public.admin_chart_revenue(uuid, text, timestamptz), public.admin_chart_course_funnel(uuid),
  public.admin_chart_video_retention(uuid), public.admin_chart_lesson_engagement(uuid),
  public.admin_chart_student_activity(uuid, integer, timestamptz), public.admin_student_course_progress(uuid)
  from public, anon, authenticated;
grant execute on function
  public.admin_chart_new_students(uuid, text, timestamptz), public.admin_chart_new_enrollments(uuid, text, timestamptz),
  public.admin_chart_active_students(uuid, text, timestamptz), public.admin_chart_lessons_completed(uuid, text, timestamptz),
  public.admin_chart_revenue(uuid, text, timestamptz), public.admin_chart_course_funnel(uuid),
  public.admin_chart_video_retention(uuid), public.admin_chart_lesson_engagement(uuid),
  public.admin_chart_student_activity(uuid, integer, timestamptz), public.admin_student_course_progress(uuid)
  to authenticated, service_role;

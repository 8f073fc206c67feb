-- Issue 40, the staff screens: Relatórios filter by turma, and the Turmas list's average progress.
-- - private.report_students gains a turma (a 3-argument overload; the 2-argument one stays for its
--   callers): only the enrollments of that turma count. A turma of another school matches none of the
--   school's enrollments, so it reads nothing.
-- - admin_report_summary and admin_report_students are recreated with p_turma_id (default null) as their
--   last parameter, so every existing caller (named arguments without it) answers as before. Dropped
--   and created, because a new parameter cannot be added by create or replace; grants as before.
-- - admin_turmas_progress: each turma of a course with its students' average progress (lessons
--   completed of the course's lessons), for the Turmas list. Staff of the course only.
set local lock_timeout = '5s';

create function private.report_students(p_school_id uuid, p_course_id uuid, p_turma_id uuid)
returns table (
  user_id uuid, name text, email text, enrolled_courses bigint, active_enrollments bigint,
  completed_lessons bigint, total_lessons bigint, completed_courses bigint, progress integer,
  last_access timestamptz
)
language sql stable security definer set search_path = '' as $$
  with students as (
    select p.id, p.name, p.email, u.last_sign_in_at
    from public.profiles p join auth.users u on u.id = p.id
    where p.school_id = p_school_id
      and not exists (select 1 from public.user_roles r where r.user_id = p.id)
  ),
  school_courses as (
    select c.id from public.courses c where c.school_id = p_school_id and (p_course_id is null or c.id = p_course_id)
  ),
  enr as (
    select e.user_id, e.course_id, e.status from public.enrollments e join school_courses sc on sc.id = e.course_id
     where p_turma_id is null or e.turma_id = p_turma_id
  ),
  course_lessons as (
    select l.course_id, count(*) as n from public.lessons l join school_courses sc on sc.id = l.course_id group by l.course_id
  ),
  done as (
    select pr.user_id, pr.course_id, count(*) as n
    from public.progress pr join enr on enr.user_id = pr.user_id and enr.course_id = pr.course_id
    where pr.completed_at is not null
    group by pr.user_id, pr.course_id
  ),
  per_course as (
    select enr.user_id, enr.course_id, coalesce(cl.n, 0) as total, coalesce(d.n, 0) as completed
    from enr left join course_lessons cl on cl.course_id = enr.course_id
             left join done d on d.user_id = enr.user_id and d.course_id = enr.course_id
  ),
  active_all as (
    select e.user_id, count(*) as n
    from public.enrollments e join public.courses c on c.id = e.course_id
    where c.school_id = p_school_id and e.status = 'ACTIVE'
    group by e.user_id
  ),
  last_progress as (
    select pr.user_id, max(pr.updated_at) as at
    from public.progress pr join public.courses c on c.id = pr.course_id
    where c.school_id = p_school_id
    group by pr.user_id
  )
  select s.id, s.name, s.email,
         count(pc.course_id),
         coalesce(max(a.n), 0),
         coalesce(sum(pc.completed), 0)::bigint,
         coalesce(sum(pc.total), 0)::bigint,
         count(*) filter (where pc.total > 0 and pc.completed >= pc.total),
         case when coalesce(sum(pc.total), 0) > 0 then round(100.0 * sum(pc.completed) / sum(pc.total))::integer else 0 end,
         nullif(greatest(coalesce(s.last_sign_in_at, '-infinity'), coalesce(max(lp.at), '-infinity')), '-infinity')
  from students s
  left join per_course pc on pc.user_id = s.id
  left join active_all a on a.user_id = s.id
  left join last_progress lp on lp.user_id = s.id
  where (p_course_id is null and p_turma_id is null) or exists (select 1 from enr where enr.user_id = s.id)
  group by s.id, s.name, s.email, s.last_sign_in_at
$$;
revoke all on function private.report_students(uuid, uuid, uuid) from public, anon, authenticated;

drop function public.admin_report_summary(uuid, uuid);
create function public.admin_report_summary(p_school_id uuid default null, p_course_id uuid default null, p_turma_id uuid default null)
returns table (total_students bigint, active_last_7_days bigint, average_progress integer, courses_completed bigint,
               average_rating numeric, comments_last_30_days bigint)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
begin
  perform private.refuse_while_password_change_pending();
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return query
  with r as (select * from private.report_students(v_school, p_course_id, p_turma_id)),
  courses as (select c.id from public.courses c where c.school_id = v_school and (p_course_id is null or c.id = p_course_id))
  select
    (select count(*) from r),
    (select count(*) from r where r.last_access >= now() - interval '7 days'),
    (select coalesce(round(avg(r.progress))::integer, 0) from r where r.total_lessons > 0),
    (select coalesce(sum(r.completed_courses), 0)::bigint from r),
    (select round(avg(lr.rating), 1) from public.lesson_ratings lr join courses on courses.id = lr.course_id),
    (select count(*) from courses cross join lateral private.published_comments(courses.id) pc
      where pc.created_at >= now() - interval '30 days');
end $$;
revoke all on function public.admin_report_summary(uuid, uuid, uuid) from public, anon;
grant execute on function public.admin_report_summary(uuid, uuid, uuid) to authenticated, service_role;

drop function public.admin_report_students(uuid, text, uuid, integer, integer);
create function public.admin_report_students(
  p_school_id uuid default null, p_tab text default 'all', p_course_id uuid default null,
  p_limit integer default 25, p_offset integer default 0, p_turma_id uuid default null
) returns table (
  user_id uuid, name text, email text, enrolled_courses bigint, active_enrollments bigint,
  completed_lessons bigint, total_lessons bigint, progress integer, last_access timestamptz, total_count bigint
)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
begin
  perform private.refuse_while_password_change_pending();
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  if p_tab not in ('all', 'multi', 'inactive') then
    raise exception 'unknown tab %', p_tab using errcode = '22023';
  end if;
  return query
  select r.user_id, r.name, r.email, r.enrolled_courses, r.active_enrollments, r.completed_lessons, r.total_lessons,
         r.progress, r.last_access, count(*) over ()
  from private.report_students(v_school, p_course_id, p_turma_id) r
  where p_tab = 'all'
     or (p_tab = 'multi' and r.active_enrollments > 1)
     or (p_tab = 'inactive' and (r.last_access is null or r.progress < 10))
  order by r.progress desc, r.name, r.user_id
  limit case when p_limit is null then null else least(greatest(p_limit, 1), 500) end
  offset greatest(coalesce(p_offset, 0), 0);
end $$;
revoke all on function public.admin_report_students(uuid, text, uuid, integer, integer, uuid) from public, anon;
grant execute on function public.admin_report_students(uuid, text, uuid, integer, integer, uuid) to authenticated, service_role;

create function public.admin_turmas_progress(p_course_id uuid)
returns table (turma_id uuid, average_progress integer)
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.refuse_while_password_change_pending();
  if not private.is_course_staff(p_course_id) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return query
  with total as (select count(*) as n from public.lessons l where l.course_id = p_course_id),
  done as (
    select p.user_id, count(*) as n from public.progress p
     where p.course_id = p_course_id and p.completed_at is not null
     group by p.user_id
  )
  select t.id,
         coalesce(round(avg(case when total.n > 0 then 100.0 * coalesce(d.n, 0) / total.n end))::integer, 0)
    from public.turmas t
    cross join total
    left join public.enrollments e on e.turma_id = t.id
    left join done d on d.user_id = e.user_id
   where t.course_id = p_course_id
   group by t.id;
end $$;
revoke all on function public.admin_turmas_progress(uuid) from public, anon, authenticated;
grant execute on function public.admin_turmas_progress(uuid) to authenticated, service_role;

-- Issue 45: the staff's comment numbers counted comments no student can read. The lesson engagement
-- chart (Relatórios › a course's lessons: "comentários" per lesson) and the reports card "comentários nos
-- últimos 30 dias" counted every row of lesson_comments: questions hidden by staff, questions waiting
-- for approval (school_discussion_settings.comments_require_approval) and the replies under either. Now
-- both count the published comments, as a student with access to the lesson reads them
-- (lesson_comments_select): status published, not hidden, and a reply only under a question that is
-- itself published and not hidden. Approving or showing a comment again makes it count from then on.
-- The rest of both functions is that of 20261126001300_analytics.sql and 20261124000200_account_security.sql.
set local lock_timeout = '5s';

-- A course's published comments. Not callable over the API: the reports' functions check the caller first.
create function private.published_comments(p_course_id uuid)
returns setof public.lesson_comments
language sql stable security definer set search_path = '' as $$
  select c.*
    from public.lesson_comments c
    left join public.lesson_comments q on q.id = c.parent_id
   where c.course_id = p_course_id
     and c.status = 'published' and c.hidden_at is null
     and (c.parent_id is null or (q.status = 'published' and q.hidden_at is null))
$$;
revoke all on function private.published_comments(uuid) from public, anon, authenticated, service_role;

create or replace function public.admin_chart_lesson_engagement(p_course_id uuid)
returns table (lesson_id uuid, lesson_position integer, lesson_title text, average_rating numeric, ratings bigint, comments bigint)
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
    left join (select pc.lesson_id, count(*) as n
                 from private.published_comments(p_course_id) pc group by pc.lesson_id) cm on cm.lesson_id = l.id
   where l.course_id = p_course_id
   order by 2;
end $$;
revoke all on function public.admin_chart_lesson_engagement(uuid) from public, anon;
grant execute on function public.admin_chart_lesson_engagement(uuid) to authenticated, service_role;

create or replace function public.admin_report_summary(p_school_id uuid default null, p_course_id uuid default null)
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
  with r as (select * from private.report_students(v_school, p_course_id)),
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
revoke all on function public.admin_report_summary(uuid, uuid) from public, anon;
grant execute on function public.admin_report_summary(uuid, uuid) to authenticated, service_role;

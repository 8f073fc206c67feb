-- Issue 40, the staff screens: the completion funnel (Relatórios > Aulas) by turma. admin_chart_course_funnel
-- is recreated with p_turma_id (default null, last), so its callers without it answer as before; with
-- it, "enrolled" and the progress counted are the turma's students only. Same caller check
-- (private.chart_course_school: staff of the course's school); a turma of another course counts nobody.
-- Also: private.report_students(uuid, uuid) is dropped. 20261128004101 added the 3-argument version and
-- moved both of its callers (admin_report_summary, admin_report_students) to it; one function per name
-- keeps the role-helper catalog (power-catalog.test) exact.
set local lock_timeout = '5s';

drop function private.report_students(uuid, uuid);

drop function public.admin_chart_course_funnel(uuid);
create function public.admin_chart_course_funnel(p_course_id uuid, p_turma_id uuid default null)
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
       and (p_turma_id is null or e.turma_id = p_turma_id)
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
revoke all on function public.admin_chart_course_funnel(uuid, uuid) from public, anon, authenticated;
grant execute on function public.admin_chart_course_funnel(uuid, uuid) to authenticated, service_role;

-- Issue 40, the staff screens: a turma's students with their progress against the turma's calendar
-- (docs/turmas.md, "Following a turma"). One RPC, staff of the course only:
-- - released: the course's lessons open by now for the turma, by the very rule lesson access uses
--   (private.enrollment_release_at with the turma's start and its module dates), so the screen's
--   "atrasado 2 aulas" and what the student can open never disagree. Inside a turma the moment does not
--   depend on the enrollment, so it is counted once for the turma.
-- - behind: released lessons the student has not completed; last_activity: the last progress saved
--   in the course.
-- - at_risk ("Alunos em risco"): an active student of a turma under way with no activity for 7 days
--   (counted from their start in the turma when they never studied) or behind by 2 lessons or more.
-- Set-based: the released lessons once, the students by enrollments_turma_id_idx, their progress by
-- progress_course_id_user_id_idx. Paged with a search (name or e-mail) and the total, as the lists are.
set local lock_timeout = '5s';

create function public.admin_turma_students(p_turma_id uuid, p_search text default null, p_at_risk_only boolean default false,
                                            p_limit integer default 50, p_offset integer default 0)
returns table (enrollment_id uuid, user_id uuid, name text, email text, phone text, status text,
               expires_at timestamptz, enrolled_at timestamptz, total integer, released integer,
               completed integer, behind integer, last_activity timestamptz, inactive_days integer,
               at_risk boolean, total_count bigint)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_turma public.turmas;
  v_search text := nullif(btrim(coalesce(p_search, '')), '');
  v_started timestamptz;
  v_under_way boolean;
begin
  perform private.refuse_while_password_change_pending();
  select * into v_turma from public.turmas t where t.id = p_turma_id;
  if v_turma.id is null or not private.is_course_staff(v_turma.course_id) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  if p_limit is null or p_limit not between 1 and 200 or p_offset is null or p_offset not between 0 and 1000000
     or length(v_search) > 200 then
    raise exception 'invalid page' using errcode = '22023';
  end if;
  v_started := private.turma_starts_at(v_turma.starts_on);
  v_under_way := private.turma_status(v_turma.starts_on, v_turma.ends_on) = 'em andamento';
  return query
  with lessons as (
    select l.id,
           private.enrollment_release_at(m.release_mode, m.release_after_days, m.release_on, null,
                                         v_turma.starts_on, private.turma_opens_on(v_turma.id, m.id)) <= now() as is_released
      from public.lessons l
      join public.modules m on m.id = l.module_id
     where l.course_id = v_turma.course_id
  ), counts as (
    select count(*)::integer as total, (count(*) filter (where is_released))::integer as released from lessons
  ), students as (
    select e.id, e.user_id, e.status, e.expires_at, e.created_at, pr.name, pr.email, pr.phone
      from public.enrollments e
      join public.profiles pr on pr.id = e.user_id
     where e.turma_id = v_turma.id
       and (v_search is null or pr.name ilike '%' || v_search || '%' or pr.email ilike '%' || v_search || '%')
  ), studied as (
    select p.user_id,
           (count(*) filter (where p.completed_at is not null))::integer as completed,
           (count(*) filter (where p.completed_at is not null and l.is_released))::integer as completed_released,
           max(p.updated_at) as last_at
      from public.progress p
      join lessons l on l.id = p.lesson_id
     where p.course_id = v_turma.course_id and p.user_id in (select s.user_id from students s)
     group by p.user_id
  ), measured as (
    select s.*, c.total, c.released, coalesce(d.completed, 0) as completed,
           c.released - coalesce(d.completed_released, 0) as behind, d.last_at,
           floor(extract(epoch from now() - coalesce(d.last_at, greatest(s.created_at, v_started))) / 86400)::integer as idle
      from students s
      cross join counts c
      left join studied d on d.user_id = s.user_id
  ), judged as (
    select r.*, (v_under_way and r.status = 'ACTIVE' and (r.expires_at is null or r.expires_at > now())
                 and (r.idle >= 7 or r.behind >= 2)) as risk
      from measured r
  )
  select j.id, j.user_id, j.name, j.email, j.phone, j.status, j.expires_at, j.created_at, j.total, j.released,
         j.completed, j.behind, j.last_at, greatest(j.idle, 0), j.risk, count(*) over ()
    from judged j
   where not coalesce(p_at_risk_only, false) or j.risk
   order by j.name, j.id
   limit p_limit offset p_offset;
end $$;
revoke all on function public.admin_turma_students(uuid, text, boolean, integer, integer) from public, anon, authenticated;
grant execute on function public.admin_turma_students(uuid, text, boolean, integer, integer) to authenticated, service_role;

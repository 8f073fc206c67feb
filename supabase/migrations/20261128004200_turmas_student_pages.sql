-- Issue 40 (turmas), the student's home: a student in a turma that has not started sees "Sua turma
-- começa em 10/03" on the course's card, so public.student_catalog (20261123001000) also answers the
-- caller's turma's start (turma_starts_on, null outside a turma). Same body otherwise; the start is a
-- CASE sub-select by the turmas primary key, so a student outside any turma reads nothing more (the
-- page-budget guard) and one inside reads one row, which the turmas policy lets them read (their own).
-- The answer's columns change, so the function is dropped and created again with its grants.
--
-- The course page embeds the student's turma (enrollments → turmas, docs/turmas.md). turmas'
-- restrictive policy (20261128004000) asked `not (select private.password_change_pending())`, a
-- constant the planner runs once for every scan of turmas, whether the student has a turma or not: one
-- more statement on the course page of every student (the page-budget guard: 19 for 18). Joined by OR
-- to a column test that is never true (a uuid's text is never ''), it is no constant any more, and
-- it costs more than the embed's `id = turma_id`, which PostgreSQL then tests first: a student
-- outside any turma (turma_id null) runs nothing. The rule itself is unchanged.
set local lock_timeout = '5s';

alter policy turmas_password_change on public.turmas
  using (not (select private.password_change_pending()) or turmas.id::text = '');

drop function public.student_catalog(uuid, integer);

create function public.student_catalog(p_school_id uuid, p_available_limit integer default 24)
returns table (
  id uuid,
  slug text,
  title text,
  description text,
  thumbnail_url text,
  thumbnail_position text,
  purchase_url text,
  created_at timestamptz,
  certificate_enabled boolean,
  enrollment_status text,
  enrollment_expires_at timestamptz,
  lesson_count integer,
  completed_count integer,
  first_preview_lesson_id uuid,
  last_lesson_id uuid,
  last_lesson_title text,
  last_lesson_duration_sec integer,
  last_position_sec integer,
  last_completed_at timestamptz,
  last_updated_at timestamptz,
  available_total integer,
  turma_starts_on date
)
language sql stable security invoker as $$
  with courses as (
    select c.*, e.status as enrollment_status, e.expires_at as enrollment_expires_at,
           -- The caller's turma's start: a primary-key look-up only for an enrollment in a turma.
           case when e.turma_id is not null then (select t.starts_on from public.turmas t where t.id = e.turma_id) end as turma_starts_on
    from public.courses c
    left join public.enrollments e on e.course_id = c.id and e.user_id = (select auth.uid())
    where c.school_id = p_school_id and c.status = 'PUBLISHED'
  ),
  ranked as (
    select c.*,
           count(*) filter (where c.enrollment_status is null) over () as available_total,
           row_number() over (partition by c.enrollment_status is null order by c.created_at desc, c.id) as rank
    from courses c
  ),
  shown as (
    select * from ranked r
    where r.enrollment_status is not null or r.rank <= greatest(coalesce(p_available_limit, 24), 0)
  ),
  -- The outline in order (modules, then lessons; ties by id, as the SPA sorts them).
  outline as (
    select l.id, l.course_id, l.title, l.duration_sec, l.is_preview,
           row_number() over (partition by l.course_id order by m.order_index, m.id, l.order_index, l.id) as position
    from public.lessons l join public.modules m on m.id = l.module_id
    where l.course_id in (select s.id from shown s)
  ),
  mine as (
    select p.course_id, p.lesson_id, p.completed_at, p.last_position_sec, p.updated_at
    from public.progress p
    where p.user_id = (select auth.uid()) and p.course_id in (select s.id from shown s)
  )
  select s.id, s.slug, s.title, s.description, s.thumbnail_url, s.thumbnail_position, s.purchase_url, s.created_at,
         s.certificate_enabled, s.enrollment_status, s.enrollment_expires_at,
         coalesce(o.lesson_count, 0), coalesce(done.completed_count, 0), o.first_preview_lesson_id,
         last.lesson_id, last.title, last.duration_sec, last.last_position_sec, last.completed_at, last.updated_at,
         s.available_total::integer, s.turma_starts_on
  from shown s
  left join lateral (
    select count(*)::integer as lesson_count,
           (array_agg(x.id order by x.position) filter (where x.is_preview))[1] as first_preview_lesson_id
    from outline x where x.course_id = s.id
  ) o on true
  -- Progress of lessons no longer in the course does not count.
  left join lateral (
    select count(*)::integer as completed_count
    from mine p join outline x on x.id = p.lesson_id
    where p.course_id = s.id and p.completed_at is not null
  ) done on true
  -- The lesson watched last (newest update; on a tie, one still in progress), if still in the course.
  left join lateral (
    select p.lesson_id, x.title, x.duration_sec, p.last_position_sec, p.completed_at, p.updated_at
    from mine p join outline x on x.id = p.lesson_id
    where p.course_id = s.id
    order by p.updated_at desc, (p.completed_at is not null), p.lesson_id
    limit 1
  ) last on true
  order by s.enrollment_status is null, s.created_at desc, s.id
$$;

revoke all on function public.student_catalog(uuid, integer) from public, anon;
grant execute on function public.student_catalog(uuid, integer) to authenticated;

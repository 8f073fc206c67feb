-- Drip release (issue 14): per module, staff choose when its lessons open for a student — at once
-- (default), N days after the student's enrollment, or from a date. Before that moment the student
-- reads no content, video URL, material or comment of the module's lessons, cannot sign their video
-- or material files, and cannot write progress, ratings or comments on them. Preview lessons stay
-- open; staff and the super admin see everything. The outline (modules, lessons) stays readable, so
-- the SPA shows the locked module with its date.
--
-- Release time of a module for one student:
--   IMMEDIATE         always released;
--   AFTER_ENROLLMENT  enrollments.created_at + release_after_days × 24 h (the same instant the SPA
--                     computes, whatever the session time zone);
--   ON_DATE           release_on at 00:00 in America/Sao_Paulo (the schools' time zone; the admin
--                     types a calendar date, not an instant).

-- ── The rule, beside the module ──────────────────────────────────────────────────────────────
alter table public.modules
  add column release_mode text not null default 'IMMEDIATE'
    constraint modules_release_mode_check check (release_mode in ('IMMEDIATE', 'AFTER_ENROLLMENT', 'ON_DATE')),
  add column release_after_days integer
    constraint modules_release_after_days_check check (release_after_days between 1 and 3650),
  add column release_on date
    constraint modules_release_on_range check (release_on between date '2000-01-01' and date '2999-12-31'),
  -- Days only with AFTER_ENROLLMENT (and then required), a date only with ON_DATE (and then required).
  add constraint modules_release_rule check (
    (release_mode = 'AFTER_ENROLLMENT') = (release_after_days is not null)
    and (release_mode = 'ON_DATE') = (release_on is not null));

grant update (release_mode, release_after_days, release_on) on public.modules to authenticated;

-- When a module opens for a student enrolled at p_enrolled_at: '-infinity' when immediate, null when
-- it depends on an enrollment that does not exist (never released).
create or replace function private.module_release_at(p_mode text, p_days integer, p_on date, p_enrolled_at timestamptz)
returns timestamptz
language sql stable set search_path = '' as $$
  select case p_mode
    when 'AFTER_ENROLLMENT' then p_enrolled_at + p_days * interval '24 hours'
    when 'ON_DATE' then p_on::timestamp at time zone 'America/Sao_Paulo'
    else '-infinity'::timestamptz
  end
$$;

-- The module's release time has passed for the caller (their enrollment in its course dates an
-- AFTER_ENROLLMENT rule). Says nothing about course access: has_lesson_access checks that too.
create or replace function private.is_module_released(p_module_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from public.modules m
    left join public.enrollments e on e.course_id = m.course_id and e.user_id = auth.uid()
    where m.id = p_module_id
      and private.module_release_at(m.release_mode, m.release_after_days, m.release_on, e.created_at) <= now()
  )
$$;

-- ── Per-row access to a lesson (write policies of progress, ratings, comments; storage paths) ─
-- Staff of the course (or super admin); an is_preview lesson of a viewable course; or course access
-- and the lesson's module released for the caller.
create or replace function private.has_lesson_access(p_lesson_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from public.lessons l
    where l.id = p_lesson_id
      and (private.is_course_staff(l.course_id)
           or (l.is_preview and private.can_view_course(l.course_id))
           or (private.has_course_access(l.course_id) and private.is_module_released(l.module_id)))
  )
$$;

-- ── The same as a set, for the read policies (evaluated once per statement) ──────────────────
-- Every lesson of a staff course; the lessons of the caller's accessible courses whose module is
-- released for them (their enrollment's date); and the previews.
create or replace function private.accessible_lesson_ids() returns setof uuid
language sql stable security definer set search_path = '' as $$
  select l.id from public.lessons l where l.course_id in (select private.staff_course_ids())
  union
  select l.id
  from public.lessons l
  join public.modules m on m.id = l.module_id
  join public.enrollments e on e.course_id = l.course_id and e.user_id = (select auth.uid())
  where l.course_id in (select private.accessible_course_ids())
    and private.module_release_at(m.release_mode, m.release_after_days, m.release_on, e.created_at) <= now()
  union
  select id from private.preview_lesson_ids() as p(id)
$$;

revoke all on function private.module_release_at(text, integer, date, timestamptz), private.is_module_released(uuid)
  from public, anon, authenticated;
-- Called only inside the security definer helpers above (as their owner); the service role may test them.
grant execute on function private.module_release_at(text, integer, date, timestamptz), private.is_module_released(uuid)
  to service_role;

-- ── Read policies that follow the lesson, not only the course ────────────────────────────────
-- lesson_contents_select already tests accessible_lesson_ids() (redefined above).
-- A course-wide material (no lesson) needs course access; a lesson's material, access to the lesson.
-- Staff first: their rows match without building the lesson set.
alter policy materials_select on public.materials
  using ((select private.is_super_admin())
         or course_id in (select private.staff_course_ids())
         or (lesson_id is null and course_id in (select private.accessible_course_ids()))
         or lesson_id in (select private.accessible_lesson_ids()));

alter policy lesson_comments_select on public.lesson_comments
  using ((select private.is_super_admin())
         or course_id in (select private.staff_course_ids())
         or lesson_id in (select private.accessible_lesson_ids()));
alter policy lesson_comments_delete on public.lesson_comments
  using ((user_id = (select auth.uid()) and lesson_id in (select private.accessible_lesson_ids()))
         or course_id in (select private.staff_course_ids())
         or (select private.is_super_admin()));

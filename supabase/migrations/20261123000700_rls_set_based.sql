-- RLS that scales (issue 12). The read policies of the hot tables called a security-definer helper
-- with a per-row argument, e.g. `(select private.can_view_course(course_id))`: the select wrapper
-- caches nothing when the argument changes, so the helper ran once per row (20,000 enrollments read
-- by staff = 20,000 calls). Here each helper returns the SET of ids the caller may reach, and the
-- policies test membership, `course_id in (select private.viewable_course_ids())`, which Postgres
-- evaluates once per statement (a hashed subplan), as Supabase's RLS performance guide recommends.
-- The rules themselves are unchanged (docs/security.md); the per-row helpers stay for the write
-- policies, which touch one row at a time, and for storage paths.
--
-- Every set requires an active profile (my_school_id() and staff_school_ids() are null/empty for an
-- inactive account). The super admin is tested separately with is_super_admin(), so the sets stay
-- small (one school's courses) and an OR short-circuits before building them for the super admin.

-- Courses whose outline the caller sees: PUBLISHED ones of their school, every one of a school they
-- are staff of.
create or replace function private.viewable_course_ids() returns setof uuid
language sql stable security definer set search_path = '' as $$
  select c.id from public.courses c
  where (c.status = 'PUBLISHED' and c.school_id = (select private.my_school_id()))
     or c.school_id in (select private.staff_school_ids())
$$;

-- Courses of the schools the caller is staff of.
create or replace function private.staff_course_ids() returns setof uuid
language sql stable security definer set search_path = '' as $$
  select c.id from public.courses c where c.school_id in (select private.staff_school_ids())
$$;

-- Courses the caller may study entirely: staff courses, and PUBLISHED courses of their school with
-- an ACTIVE, unexpired enrollment of theirs (has_course_access as a set).
create or replace function private.accessible_course_ids() returns setof uuid
language sql stable security definer set search_path = '' as $$
  select id from private.staff_course_ids() as s(id)
  union
  select e.course_id
  from public.enrollments e join public.courses c on c.id = e.course_id
  where e.user_id = (select auth.uid()) and e.status = 'ACTIVE' and (e.expires_at is null or e.expires_at > now())
    and c.status = 'PUBLISHED' and c.school_id = (select private.my_school_id())
$$;

-- is_preview lessons of the courses whose outline the caller sees (open without enrollment).
create or replace function private.preview_lesson_ids() returns setof uuid
language sql stable security definer set search_path = '' as $$
  select l.id from public.lessons l
  where l.is_preview and l.course_id in (select private.viewable_course_ids())
$$;

-- Lessons the caller may open (has_lesson_access as a set): those of accessible courses, and previews.
create or replace function private.accessible_lesson_ids() returns setof uuid
language sql stable security definer set search_path = '' as $$
  select l.id from public.lessons l where l.course_id in (select private.accessible_course_ids())
  union
  select id from private.preview_lesson_ids() as p(id)
$$;

revoke all on function private.viewable_course_ids(), private.staff_course_ids(), private.accessible_course_ids(),
  private.preview_lesson_ids(), private.accessible_lesson_ids() from public, anon, authenticated;
grant execute on function private.viewable_course_ids(), private.staff_course_ids(), private.accessible_course_ids(),
  private.preview_lesson_ids(), private.accessible_lesson_ids() to authenticated, service_role;

-- ── The outline ──────────────────────────────────────────────────────────────────────────────
alter policy modules_select on public.modules
  using ((select private.is_super_admin()) or course_id in (select private.viewable_course_ids()));
alter policy lessons_select on public.lessons
  using ((select private.is_super_admin()) or course_id in (select private.viewable_course_ids()));

-- ── Lesson text/video and materials: access to the lesson ───────────────────────────────────
alter policy lesson_contents_select on public.lesson_contents
  using ((select private.is_super_admin()) or lesson_id in (select private.accessible_lesson_ids()));
-- A course-wide material (no lesson) needs course access; a lesson's material, access to the lesson
-- (course access, or the lesson is a preview).
alter policy materials_select on public.materials
  using ((select private.is_super_admin())
         or course_id in (select private.accessible_course_ids())
         or lesson_id in (select private.preview_lesson_ids()));

-- ── Per-student rows: own rows, or staff of the course's school ──────────────────────────────
alter policy enrollments_select on public.enrollments
  using ((user_id = (select auth.uid()) and (select private.is_active()))
         or course_id in (select private.staff_course_ids())
         or (select private.is_super_admin()));
alter policy progress_select on public.progress
  using ((user_id = (select auth.uid()) and (select private.is_active()))
         or course_id in (select private.staff_course_ids())
         or (select private.is_super_admin()));
alter policy lesson_ratings_select on public.lesson_ratings
  using ((user_id = (select auth.uid()) and (select private.is_active()))
         or course_id in (select private.staff_course_ids())
         or (select private.is_super_admin()));

-- ── Comments: everyone who may open the lesson reads them; authors and staff delete ─────────
alter policy lesson_comments_select on public.lesson_comments
  using ((select private.is_super_admin())
         or course_id in (select private.accessible_course_ids())
         or lesson_id in (select private.preview_lesson_ids()));
alter policy lesson_comments_delete on public.lesson_comments
  using ((user_id = (select auth.uid())
          and (course_id in (select private.accessible_course_ids()) or lesson_id in (select private.preview_lesson_ids())))
         or course_id in (select private.staff_course_ids())
         or (select private.is_super_admin()));

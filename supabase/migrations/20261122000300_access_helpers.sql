-- Who is the caller and what may they reach. Every helper is security definer with an empty
-- search_path (so it reads the real rows whatever the caller's RLS, and cannot be hijacked by objects
-- on the caller's path), lives in the unexposed schema `private`, and answers for auth.uid() only.
-- Every helper first requires an ACTIVE profile: an inactive account gets false/null everywhere, even
-- with a token issued before it was deactivated.
-- Policies call them as (select private.fn()) so Postgres evaluates the argument-less ones once per
-- statement instead of once per row.

-- The caller's profile is active.
create or replace function private.is_active() returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.profiles p where p.id = auth.uid() and p.is_active)
$$;

-- The caller's own school (null when inactive or without one).
create or replace function private.my_school_id() returns uuid
language sql stable security definer set search_path = '' as $$
  select p.school_id from public.profiles p where p.id = auth.uid() and p.is_active
$$;

create or replace function private.is_super_admin() returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from public.user_roles r join public.profiles p on p.id = r.user_id
    where r.user_id = auth.uid() and p.is_active and r.role = 'SUPER_ADMIN'
  )
$$;

-- Schools where the caller holds a staff role (SCHOOL_ADMIN, INSTRUCTOR, STAFF). Excludes super admin,
-- who is checked separately with is_super_admin().
create or replace function private.staff_school_ids() returns setof uuid
language sql stable security definer set search_path = '' as $$
  select distinct r.school_id
  from public.user_roles r join public.profiles p on p.id = r.user_id
  where r.user_id = auth.uid() and p.is_active
    and r.role in ('SCHOOL_ADMIN', 'INSTRUCTOR', 'STAFF') and r.school_id is not null
$$;

-- The caller manages this school: a staff role there, or super admin.
create or replace function private.is_school_staff(p_school_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from public.user_roles r join public.profiles p on p.id = r.user_id
    where r.user_id = auth.uid() and p.is_active
      and (r.role = 'SUPER_ADMIN' or (r.school_id = p_school_id and r.role in ('SCHOOL_ADMIN', 'INSTRUCTOR', 'STAFF')))
  )
$$;

-- The caller manages the school that owns this course.
create or replace function private.is_course_staff(p_course_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from public.courses c where c.id = p_course_id and private.is_school_staff(c.school_id)
  )
$$;

-- The user holds any role (staff or super admin): such accounts are managed by the super admin only.
create or replace function private.has_any_role(p_user_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.user_roles r where r.user_id = p_user_id)
$$;

-- The caller sees this course's outline: staff of its school, or a member of its school and PUBLISHED.
create or replace function private.can_view_course(p_course_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from public.courses c
    where c.id = p_course_id
      and (private.is_school_staff(c.school_id)
           or (c.status = 'PUBLISHED' and c.school_id = private.my_school_id()))
  )
$$;

-- The caller may study the whole course: staff of its school, or an ACTIVE, unexpired enrollment in
-- a PUBLISHED course of their own school.
create or replace function private.has_course_access(p_course_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from public.courses c
    where c.id = p_course_id
      and (private.is_school_staff(c.school_id)
           or (c.status = 'PUBLISHED' and c.school_id = private.my_school_id()
               and exists (
                 select 1 from public.enrollments e
                 where e.course_id = c.id and e.user_id = auth.uid() and e.status = 'ACTIVE'
                   and (e.expires_at is null or e.expires_at > now()))))
  )
$$;

-- The caller may open this lesson (content, video, materials, comments, progress, rating): course
-- access, or an is_preview lesson of a PUBLISHED course of their school.
create or replace function private.has_lesson_access(p_lesson_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from public.lessons l
    where l.id = p_lesson_id
      and (private.has_course_access(l.course_id)
           or (l.is_preview and private.can_view_course(l.course_id)))
  )
$$;

-- ── Storage paths ────────────────────────────────────────────────────────────────────────────
-- school-banners, course-thumbnails: '{school_id}/...'.
-- lesson-videos: '{school_id}/{course_id}/{lesson_id}/{file}' (or '{school_id}/{course_id}/{file}').
-- lesson-materials: '{school_id}/{course_id}/{lesson_id}/{file}' (or '{school_id}/{course_id}/{file}').
-- announcement-videos: '{school_id}/{file}'.

-- Staff of the school named by the first folder.
create or replace function private.can_write_school_object(p_name text) returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce(private.is_school_staff(private.uuid_or_null((storage.foldername(p_name))[1])), false)
$$;

-- Staff of the school named by the first folder, and the second folder is a course of that school.
create or replace function private.can_write_course_object(p_name text) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from public.courses c
    where c.id = private.uuid_or_null((storage.foldername(p_name))[2])
      and c.school_id = private.uuid_or_null((storage.foldername(p_name))[1])
      and private.is_school_staff(c.school_id)
  )
$$;

-- Read a lesson video or material: the path names a course of that school, and the caller has
-- access to the lesson in the third folder (when it is a lesson of that course) or else to the course.
create or replace function private.can_read_course_object(p_name text) returns boolean
language plpgsql stable security definer set search_path = '' as $$
declare
  parts text[] := storage.foldername(p_name);
  v_course uuid;
  v_lesson uuid;
begin
  select c.id into v_course from public.courses c
   where c.id = private.uuid_or_null(parts[2]) and c.school_id = private.uuid_or_null(parts[1]);
  if v_course is null then
    return false;
  end if;
  select l.id into v_lesson from public.lessons l
   where l.id = private.uuid_or_null(parts[3]) and l.course_id = v_course;
  if v_lesson is not null then
    return private.has_lesson_access(v_lesson);
  end if;
  return private.has_course_access(v_course);
end $$;

-- Read an announcement video: a member (or staff) of the school named by the first folder.
create or replace function private.can_read_school_member_object(p_name text) returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce(
    private.uuid_or_null((storage.foldername(p_name))[1]) = private.my_school_id()
    or private.is_school_staff(private.uuid_or_null((storage.foldername(p_name))[1])),
    false)
$$;

-- ── Privileges on the helpers ────────────────────────────────────────────────────────────────
-- Functions are executable by PUBLIC by default: take that away from everything in `private`, then
-- give the signed-in role only what its policies call. anon calls no helper (its only policy is on
-- schools and needs none).
revoke all on all functions in schema private from public, anon, authenticated;
grant usage on schema private to authenticated, service_role;
grant execute on function
  private.is_active(), private.my_school_id(), private.is_super_admin(), private.staff_school_ids(),
  private.is_school_staff(uuid), private.is_course_staff(uuid), private.has_any_role(uuid),
  private.can_view_course(uuid), private.has_course_access(uuid), private.has_lesson_access(uuid),
  private.can_write_school_object(text), private.can_write_course_object(text),
  private.can_read_course_object(text), private.can_read_school_member_object(text),
  private.uuid_or_null(text), private.is_image_position(text), private.is_slug(text)
  to authenticated, service_role;

-- Issue 38: a lesson's access check reads the lesson, its course, its module and the caller's enrollment
-- once. private.has_lesson_access(lesson) is the WITH CHECK of every progress, rating and comment write,
-- and an upsert asks it three times (insert's check, update's using and check): on the bench school it
-- was 108 of the 162 buffer pages of 'save position' (tests/budgets), because it asked
-- is_course_staff, can_view_course, has_course_access and is_module_released in turn, each reading the
-- course (and the staff roles) again. The rule is the same, written as one query:
--   staff of the course's school (is_school_staff: the super admin, and the second factor, included);
--   or, in the caller's own school and a PUBLISHED course: a preview lesson, or an ACTIVE enrollment not
--   expired whose module is released (module_release_at from the enrollment's start; an enrollment
--   is unique per student and course, and a lesson's module is of the lesson's course).
create or replace function private.has_lesson_access(p_lesson_id uuid) returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  return exists (
    select 1
      from public.lessons l
      join public.courses c on c.id = l.course_id
      join public.modules m on m.id = l.module_id
      left join public.enrollments e on e.course_id = l.course_id and e.user_id = auth.uid()
     where l.id = p_lesson_id
       and (private.is_school_staff(c.school_id)
            or (c.status = 'PUBLISHED' and c.school_id = private.my_school_id()
                and (l.is_preview
                     or (e.status = 'ACTIVE' and (e.expires_at is null or e.expires_at > now())
                         and private.module_release_at(m.release_mode, m.release_after_days, m.release_on, e.created_at) <= now()))))
  );
end $$;

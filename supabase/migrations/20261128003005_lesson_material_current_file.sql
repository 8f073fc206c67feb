-- Issue 39, after 20261128003002 (the outside attacker's finding on old files, for materials too): a student
-- was signed any lesson-materials object under a folder of a lesson they may open, including a file no
-- material (or question) holds any more: a material's earlier file, or a file staff uploaded and never
-- attached. Now a student is signed only a CURRENT file of the course: a material's file_path, or the
-- image of a question of the lesson's quiz (its draft, or any version an attempt may show). Staff of the
-- school, who read the bucket directly, still sign any of its files. download-material asks the same
-- function, so it stamps only current files too. (The app already deletes a material's file when the
-- material is deleted or its file replaced.)
set local lock_timeout = '5s';

-- Whether the object is a current file of the course (and lesson) its path names.
create function private.is_current_lesson_material(p_name text) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
           select 1 from public.materials m
            where m.course_id = private.uuid_or_null((storage.foldername(p_name))[2]) and m.file_path = p_name)
      or exists (
           select 1 from public.quizzes z
             join public.quiz_questions q on q.quiz_id = z.id
            where z.lesson_id = private.uuid_or_null((storage.foldername(p_name))[3]) and q.image_path = p_name)
      or exists (
           select 1 from public.quizzes z
             join public.quiz_versions v on v.quiz_id = z.id
            where z.lesson_id = private.uuid_or_null((storage.foldername(p_name))[3])
              and v.questions @> jsonb_build_array(jsonb_build_object('image_path', p_name)))
$$;
revoke all on function private.is_current_lesson_material(text) from public, anon, authenticated, service_role;
grant execute on function private.is_current_lesson_material(text) to authenticated, service_role;

-- As 20261128003002, plus: a lesson material is a current file of the course, unless the caller is staff.
create or replace function public.can_sign_lesson_file(p_bucket text, p_name text) returns boolean
language sql stable set search_path = '' as $$
  select p_bucket in ('lesson-videos', 'lesson-materials')
     and coalesce(private.can_read_course_object(p_name), false)
     and exists (select 1 from public.courses c where c.id = private.uuid_or_null((storage.foldername(p_name))[2]))
     and (coalesce(private.can_write_course_object(p_name), false)
          or case p_bucket when 'lesson-videos' then private.is_current_lesson_video(p_name)
                           else private.is_current_lesson_material(p_name) end)
$$;

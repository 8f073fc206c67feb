-- Buckets (limits and types of SPEC §5/§9 enforced by Storage itself) and their policies.
-- Paths (docs/data-model.md):
--   avatars              {user_id}/avatar.{ext}
--   school-banners       {school_id}/{file}                 banners, login banners, logos
--   course-thumbnails    {school_id}/{file}                 course thumbnails/banners, module thumbnails, announcement images
--   lesson-videos        {school_id}/{course_id}/{lesson_id}/{file}
--   announcement-videos  {school_id}/{file}
--   lesson-materials     {school_id}/{course_id}/{lesson_id}/{file}  ({school_id}/{course_id}/{file} for course-wide files)
-- Public buckets are served by public URL without any policy; there is deliberately no select policy
-- that would let anyone list them: only the writer of a folder sees its objects (Storage needs that to
-- overwrite and remove).

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values
  ('avatars', 'avatars', true, 2 * 1024 * 1024, array['image/*']),
  ('school-banners', 'school-banners', true, 5 * 1024 * 1024, array['image/jpeg', 'image/png', 'image/webp']),
  ('course-thumbnails', 'course-thumbnails', true, 5 * 1024 * 1024, array['image/jpeg', 'image/png', 'image/webp']),
  ('lesson-videos', 'lesson-videos', false, 500 * 1024 * 1024,
    array['video/mp4', 'video/webm', 'video/quicktime', 'video/x-msvideo']),
  -- Private: read by members of the school through signed URLs (announcements are for signed-in students).
  ('announcement-videos', 'announcement-videos', false, 500 * 1024 * 1024, array['video/mp4', 'video/webm']),
  ('lesson-materials', 'lesson-materials', false, 20 * 1024 * 1024,
    array['application/pdf',
          'application/msword', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          'application/vnd.ms-excel', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          'application/vnd.ms-powerpoint', 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
          'text/csv', 'image/jpeg', 'image/png', 'image/webp', 'image/gif'])
on conflict (id) do update set
  public = excluded.public,
  file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types;

-- ── avatars: each user writes (and sees, to overwrite) only their own folder ─────────────────
create policy avatars_select_own on storage.objects for select to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text
         and (select private.is_active()));
create policy avatars_insert_own on storage.objects for insert to authenticated
  with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text
              and (select private.is_active()));
create policy avatars_update_own on storage.objects for update to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text
         and (select private.is_active()))
  with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text
              and (select private.is_active()));
create policy avatars_delete_own on storage.objects for delete to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text
         and (select private.is_active()));

-- ── school-banners, course-thumbnails: staff of the school in its folder ─────────────────────
create policy school_images_select_staff on storage.objects for select to authenticated
  using (bucket_id in ('school-banners', 'course-thumbnails') and (select private.can_write_school_object(name)));
create policy school_images_insert_staff on storage.objects for insert to authenticated
  with check (bucket_id in ('school-banners', 'course-thumbnails') and (select private.can_write_school_object(name)));
create policy school_images_update_staff on storage.objects for update to authenticated
  using (bucket_id in ('school-banners', 'course-thumbnails') and (select private.can_write_school_object(name)))
  with check (bucket_id in ('school-banners', 'course-thumbnails') and (select private.can_write_school_object(name)));
create policy school_images_delete_staff on storage.objects for delete to authenticated
  using (bucket_id in ('school-banners', 'course-thumbnails') and (select private.can_write_school_object(name)));

-- ── lesson-videos, lesson-materials: read with access to the lesson/course, written by staff ──
create policy course_files_select on storage.objects for select to authenticated
  using (bucket_id in ('lesson-videos', 'lesson-materials') and (select private.can_read_course_object(name)));
create policy course_files_insert_staff on storage.objects for insert to authenticated
  with check (bucket_id in ('lesson-videos', 'lesson-materials') and (select private.can_write_course_object(name)));
create policy course_files_update_staff on storage.objects for update to authenticated
  using (bucket_id in ('lesson-videos', 'lesson-materials') and (select private.can_write_course_object(name)))
  with check (bucket_id in ('lesson-videos', 'lesson-materials') and (select private.can_write_course_object(name)));
create policy course_files_delete_staff on storage.objects for delete to authenticated
  using (bucket_id in ('lesson-videos', 'lesson-materials') and (select private.can_write_course_object(name)));

-- ── announcement-videos: members of the school read, staff write ─────────────────────────────
create policy announcement_videos_select_members on storage.objects for select to authenticated
  using (bucket_id = 'announcement-videos' and (select private.can_read_school_member_object(name)));
create policy announcement_videos_insert_staff on storage.objects for insert to authenticated
  with check (bucket_id = 'announcement-videos' and (select private.can_write_school_object(name)));
create policy announcement_videos_update_staff on storage.objects for update to authenticated
  using (bucket_id = 'announcement-videos' and (select private.can_write_school_object(name)))
  with check (bucket_id = 'announcement-videos' and (select private.can_write_school_object(name)));
create policy announcement_videos_delete_staff on storage.objects for delete to authenticated
  using (bucket_id = 'announcement-videos' and (select private.can_write_school_object(name)));

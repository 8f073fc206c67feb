-- Storage hardening of issue 19 (items 5 and 6, and the signed-URL lifetime). Policies of
-- 20261122000500_storage.sql change here, for these reasons:
--
-- 1. avatars accepted 'image/*', so also image/svg+xml, whose <script> runs when its public URL is
--    opened. Every bucket now lists exact types only (Storage enforces allowed_mime_types on upload).
-- 2. Storage's copy (and move) checks the destination's INSERT (or UPDATE) policy, but not the
--    destination bucket's allowed types or size limit; it hands the policy the object's metadata
--    (mimetype, size), as an upload does. The public buckets' write policies now check that metadata
--    against the bucket, so nothing of another type or size reaches a public URL that way.
-- 3. With SELECT on an object, Storage signs a URL to it for any lifetime the caller asks (a year
--    before a chargeback pauses the enrollment), and copy/move read from it. Students therefore lose
--    direct SELECT on lesson-videos and lesson-materials objects: the edge function sign-lesson-file
--    asks public.can_sign_lesson_file as the student (the same rule as before: lesson access with drip
--    release, or course access for course-wide files) and signs with a capped lifetime. Staff of the
--    school and the super admin keep direct access.
set local lock_timeout = '5s';

update storage.buckets set allowed_mime_types = array['image/jpeg', 'image/png', 'image/webp', 'image/gif']
 where id = 'avatars';

-- The object's declared type (without parameters) is exactly one of the bucket's types, and its size
-- (the `size` a stored object's metadata has, which a copy or move carries) within the bucket's limit.
-- No metadata (a permission probe before the bytes arrive) passes, and an upload's probe carries no
-- size: Storage itself checks an upload's bytes against the same bucket settings.
create or replace function private.fits_bucket(p_bucket text, p_metadata jsonb) returns boolean
language sql stable security definer set search_path = '' as $$
  select p_metadata is null or exists (
    select 1 from storage.buckets b
    where b.id = p_bucket
      and lower(btrim(split_part(p_metadata->>'mimetype', ';', 1))) = any (b.allowed_mime_types)
      and (b.file_size_limit is null
           or coalesce(p_metadata->>'size', '0')::numeric <= b.file_size_limit)
  )
$$;
revoke all on function private.fits_bucket(text, jsonb) from public, anon;
grant execute on function private.fits_bucket(text, jsonb) to authenticated, service_role;

-- ── avatars ─────────────────────────────────────────────────────────────────────────────────────
drop policy avatars_insert_own on storage.objects;
create policy avatars_insert_own on storage.objects for insert to authenticated
  with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text
              and (select private.is_active()) and private.fits_bucket(bucket_id, metadata));
drop policy avatars_update_own on storage.objects;
create policy avatars_update_own on storage.objects for update to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text
         and (select private.is_active()))
  with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text
              and (select private.is_active()) and private.fits_bucket(bucket_id, metadata));

-- ── school-banners, course-thumbnails ──────────────────────────────────────────────────────────
drop policy school_images_insert_staff on storage.objects;
create policy school_images_insert_staff on storage.objects for insert to authenticated
  with check (bucket_id in ('school-banners', 'course-thumbnails') and (select private.can_write_school_object(name))
              and private.fits_bucket(bucket_id, metadata));
drop policy school_images_update_staff on storage.objects;
create policy school_images_update_staff on storage.objects for update to authenticated
  using (bucket_id in ('school-banners', 'course-thumbnails') and (select private.can_write_school_object(name)))
  with check (bucket_id in ('school-banners', 'course-thumbnails') and (select private.can_write_school_object(name))
              and private.fits_bucket(bucket_id, metadata));

-- ── lesson-videos, lesson-materials: direct reads for staff only ──────────────────────────────
drop policy course_files_select on storage.objects;
create policy course_files_select_staff on storage.objects for select to authenticated
  using (bucket_id in ('lesson-videos', 'lesson-materials') and (select private.can_write_course_object(name)));

-- Whether the caller may have a signed URL of this lesson file (sign-lesson-file calls it as the
-- caller). Invoker, so the answer is the caller's own: the rule the select policy used (lesson access
-- with drip release, or course access), and the course row visible through the caller's RLS, so any
-- restrictive policy on courses (a pending password change, say) holds here too.
create or replace function public.can_sign_lesson_file(p_bucket text, p_name text) returns boolean
language sql stable set search_path = '' as $$
  select p_bucket in ('lesson-videos', 'lesson-materials')
     and coalesce(private.can_read_course_object(p_name), false)
     and exists (select 1 from public.courses c where c.id = private.uuid_or_null((storage.foldername(p_name))[2]))
$$;
revoke all on function public.can_sign_lesson_file(text, text) from public, anon;
grant execute on function public.can_sign_lesson_file(text, text) to authenticated, service_role;

-- Issue 39, after 20261124000500 (the outside attacker's finding): a lesson's old Storage video stayed
-- signable after the lesson moved to the video host (or to YouTube, or to another upload).
-- can_sign_lesson_file read only the path's folders (school, course, lesson) and the caller's access to
-- them, so every student who had watched before protection was turned on kept a path that still signed the
-- whole MP4, and nothing deleted the object.
-- 1. A student is signed only the lesson's CURRENT video (lesson_contents.video_url); staff of the school,
--    who read the bucket directly anyway, still sign any of its files.
-- 2. When a lesson's video_url stops pointing at a Storage object (another upload, the host, a link, none,
--    or the lesson deleted), the object is queued for deletion in private.video_host_deletions as host
--    'storage' ('lesson-videos/<name>'), beside the host videos, and delete-host-videos deletes it through
--    the Storage API (hosted Storage refuses deletes of storage.objects rows made in SQL; the app deletes
--    its other files through the API too). An object another lesson still points at is kept; pointing a
--    lesson at a queued object again takes it off the queue.
set local lock_timeout = '5s';

-- Whether the object is the current video of the lesson its path names.
create function private.is_current_lesson_video(p_name text) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from public.lesson_contents c
     where c.lesson_id = private.uuid_or_null((storage.foldername(p_name))[3]) and c.video_url = p_name)
$$;
revoke all on function private.is_current_lesson_video(text) from public, anon, authenticated, service_role;
grant execute on function private.is_current_lesson_video(text) to authenticated, service_role;

-- As 20261124000500, plus: a lesson video is the lesson's current one, unless the caller is staff of the
-- school (can_write_course_object: the rule of their direct read).
create or replace function public.can_sign_lesson_file(p_bucket text, p_name text) returns boolean
language sql stable set search_path = '' as $$
  select p_bucket in ('lesson-videos', 'lesson-materials')
     and coalesce(private.can_read_course_object(p_name), false)
     and exists (select 1 from public.courses c where c.id = private.uuid_or_null((storage.foldername(p_name))[2]))
     and (p_bucket <> 'lesson-videos'
          or private.is_current_lesson_video(p_name)
          or coalesce(private.can_write_course_object(p_name), false))
$$;

-- A Storage path in video_url (not a link, not the hosted video, not empty).
create function private.is_storage_video_path(p_url text) returns boolean
language sql immutable set search_path = '' as $$
  select p_url is not null and btrim(p_url) <> '' and p_url <> 'video-host' and p_url !~* '^[a-z][a-z0-9+.-]*://'
$$;
revoke all on function private.is_storage_video_path(text) from public, anon, authenticated, service_role;

create function private.lesson_contents_queue_old_video() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_op = 'UPDATE' and private.is_storage_video_path(new.video_url) then
    delete from private.video_host_deletions where host = 'storage' and host_video_id = 'lesson-videos/' || new.video_url;
  end if;
  if private.is_storage_video_path(old.video_url)
     and (tg_op = 'DELETE' or new.video_url is distinct from old.video_url)
     and not exists (select 1 from public.lesson_contents c where c.video_url = old.video_url and c.lesson_id <> old.lesson_id) then
    insert into private.video_host_deletions (host, host_video_id, reason)
    values ('storage', 'lesson-videos/' || old.video_url, case when tg_op = 'DELETE' then 'removed' else 'replaced' end)
    on conflict (host, host_video_id) do nothing;
  end if;
  return null;
end $$;
revoke all on function private.lesson_contents_queue_old_video() from public, anon, authenticated, service_role;
create trigger lesson_contents_queue_old_video after update of video_url or delete on public.lesson_contents
  for each row execute function private.lesson_contents_queue_old_video();


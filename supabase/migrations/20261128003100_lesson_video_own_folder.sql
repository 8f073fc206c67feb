-- Issue 39, after 20261128003002 (the second outside attacker's finding 23): nothing required a lesson's
-- Storage video_url to be a file of that lesson, so another school's staff pointed their own lesson at
-- Escola Demo's queued old video, and 003002's trigger ("pointing a lesson at a queued object again takes
-- it off the queue") kept the object from being deleted; pointing at another lesson's current video would
-- also keep it once that lesson moved on (an object another lesson points at is kept). Now a Storage
-- video_url (not a link, not 'video-host') must be a file directly in the lesson's own folder, {school}/{course}/{lesson}/,
-- where the lesson editor uploads it (and where sign-lesson-file looks for the lesson): a path elsewhere is
-- refused (23514). Rows already stored are not checked again until their video_url changes.
set local lock_timeout = '5s';

create function private.lesson_video_in_own_folder() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_folder text;
  v_name text;
begin
  if private.is_storage_video_path(new.video_url) and (tg_op = 'INSERT' or new.video_url is distinct from old.video_url) then
    select c.school_id::text || '/' || c.id::text || '/' || l.id::text || '/' into v_folder
      from public.lessons l join public.courses c on c.id = l.course_id
     where l.id = new.lesson_id;
    v_name := substr(new.video_url, length(v_folder) + 1);
    -- A file directly in the folder: no subfolder, no '..' climbing out of it.
    if v_folder is null or not starts_with(new.video_url, v_folder) or v_name in ('', '.', '..') or position('/' in v_name) > 0 then
      raise exception 'O vídeo enviado deve ser um arquivo da própria aula.' using errcode = '23514';
    end if;
  end if;
  return new;
end $$;
revoke all on function private.lesson_video_in_own_folder() from public, anon, authenticated, service_role;

create trigger lesson_contents_video_in_own_folder before insert or update of video_url on public.lesson_contents
  for each row execute function private.lesson_video_in_own_folder();

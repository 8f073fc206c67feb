-- Issue 39, after 20261128002000 (the outside attacker's finding): replacing a lesson's hosted video queued
-- the old one for deletion as soon as video-upload created the new one at the host, before its file had
-- even arrived. A cancelled upload, a closed browser or a file the host failed to encode left the lesson
-- with nothing to play, and the old video was gone for good.
--
-- Now a lesson keeps playing its last ready video until the new one is ready:
-- - lesson_videos.host_video_id and its status, percent and failure are the lesson's latest upload (what
--   the editor shows: "Processando vídeo… 45%", "Falha ao processar o vídeo" with "Enviar novamente");
-- - lesson_videos.playing_host_video_id is what students play: the latest upload the host said was ready.
--   It moves to the new video when that one is ready, and only then is the old one queued for deletion.
-- - A replacement that never arrives or fails leaves the old video playing. A replacement replaced before
--   it was ready goes at once (nothing played it). Deleting the row (the lesson's video changed to YouTube,
--   Storage or none; the lesson deleted) queues both.
set local lock_timeout = '5s';

alter table public.lesson_videos
  add column playing_host_video_id text
    constraint lesson_videos_playing_host_video_id_length check (length(playing_host_video_id) between 1 and 200);
comment on column public.lesson_videos.playing_host_video_id is
  'The host video students play: the latest of the lesson''s uploads the host said was ready (while a replacement in host_video_id is waiting, processing or failed, the previous one). Null until one is ready.';
update public.lesson_videos set playing_host_video_id = host_video_id where status = 'ready';

-- Every host video the row held and holds no more (the latest upload, the one playing) is queued.
create or replace function private.lesson_videos_queue_deletion() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into private.video_host_deletions (host, host_video_id, reason)
  select distinct old.host, gone.id, case when tg_op = 'DELETE' then 'removed' else 'replaced' end
    from unnest(array[old.host_video_id, old.playing_host_video_id]) as gone (id)
   where gone.id is not null
     and (tg_op = 'DELETE' or new.host is distinct from old.host
          or gone.id is distinct from new.host_video_id and gone.id is distinct from new.playing_host_video_id)
  on conflict (host, host_video_id) do nothing;
  return null;
end $$;
drop trigger lesson_videos_queue_deletion on public.lesson_videos;
create trigger lesson_videos_queue_deletion after update of host, host_video_id, playing_host_video_id or delete on public.lesson_videos
  for each row execute function private.lesson_videos_queue_deletion();

-- The video just created at the host becomes the lesson's latest upload (waiting for its file); the one
-- playing keeps playing (on the same host) until this one is ready. Otherwise as in 20261128002000.
create or replace function public.record_lesson_video_upload(p_lesson_id uuid, p_host text, p_host_video_id text) returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_school uuid;
begin
  select c.school_id into v_school from public.lessons l join public.courses c on c.id = l.course_id where l.id = p_lesson_id;
  if v_school is null then
    raise exception 'lesson % not found', p_lesson_id using errcode = '23503';
  end if;
  insert into public.lesson_contents (lesson_id, video_url) values (p_lesson_id, 'video-host')
  on conflict (lesson_id) do update set video_url = excluded.video_url
  where public.lesson_contents.video_url is distinct from excluded.video_url;
  update public.lessons set video_type = 'upload' where id = p_lesson_id and video_type <> 'upload';
  insert into public.lesson_videos (lesson_id, school_id, host, host_video_id)
  values (p_lesson_id, v_school, p_host, p_host_video_id)
  on conflict (lesson_id) do update
    set school_id = excluded.school_id, host = excluded.host, host_video_id = excluded.host_video_id,
        playing_host_video_id = case when public.lesson_videos.host = excluded.host then public.lesson_videos.playing_host_video_id end,
        status = 'waiting', percent = 0, renditions = '{}', duration_sec = null, failure_reason = null, ready_at = null;
end $$;

-- A verified webhook's news about the lesson's latest upload; when it is ready, students play it from then
-- on (and the video it replaces is queued). Otherwise as in 20261128002000.
create or replace function public.record_lesson_video_status(
  p_host text, p_host_video_id text, p_state text, p_percent integer default null,
  p_renditions text[] default null, p_duration_sec integer default null, p_reason text default null
) returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  v public.lesson_videos;
begin
  if p_state is null or p_state not in ('waiting', 'processing', 'ready', 'failed') then
    raise exception 'invalid state %', p_state using errcode = '22023';
  end if;
  select * into v from public.lesson_videos where host = p_host and host_video_id = p_host_video_id for update;
  if not found or (p_state in ('waiting', 'processing') and v.status in ('ready', 'failed')) then
    return false;
  end if;
  update public.lesson_videos
     set status = p_state,
         percent = case p_state when 'ready' then 100
                                when 'processing' then greatest(v.percent, least(greatest(coalesce(p_percent, 0), 0), 100))
                                else v.percent end,
         renditions = case when p_state = 'ready'
                           then array(select left(r, 20) from unnest(coalesce(p_renditions, '{}')) r where r is not null limit 20)
                           else v.renditions end,
         duration_sec = case when p_state = 'ready' and p_duration_sec >= 0 then p_duration_sec else v.duration_sec end,
         failure_reason = case when p_state = 'failed' then left(coalesce(nullif(btrim(p_reason), ''), 'Falha ao processar o vídeo'), 500) end,
         ready_at = case when p_state = 'ready' then coalesce(v.ready_at, now()) else v.ready_at end,
         playing_host_video_id = case when p_state = 'ready' then v.host_video_id else v.playing_host_video_id end
   where lesson_id = v.lesson_id;
  -- The lesson's length, when staff did not give one.
  if p_state = 'ready' and p_duration_sec > 0 then
    update public.lessons set duration_sec = p_duration_sec where id = v.lesson_id and duration_sec = 0;
  end if;
  return true;
end $$;

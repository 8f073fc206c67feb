-- Issue 39, the database of hosted lesson videos, playback sessions and shared logins. docs/video.md has
-- the design and the contract the screens build on. In short:
-- - lesson_videos: a lesson's video at the host (Bunny Stream behind supabase/functions/_shared/video-host),
--   one row per lesson, written only by the edge functions (video-upload, video-webhook) with the service
--   role; staff of the school read it ("Processando vídeo… 45%"), students never (they would read the host's
--   video id). The lesson points at it with lesson_contents.video_url = 'video-host' (video_type 'upload', as
--   an uploaded Storage file, whose video_url is its object path); changing video_url to anything else drops
--   the row, and a dropped or replaced row queues the host's video for deletion (video_host_deletions,
--   drained by the delete-host-videos function every minute while something is due).
-- - school_video_settings: "Telas simultâneas" (max_screens) and the thresholds of "Compartilhamento
--   suspeito" (devices and networks in 7 days). A table of its own, as school_discussion_settings; no row:
--   the defaults.
-- - playback_sessions: one per player that started a lesson video (video-playback → public.video_playback,
--   one round trip: access as sign-lesson-file checks it, the screens limit, the session). Device and
--   network are kept as salted hashes (HMAC with a secret of this database, per school) beside what the
--   report shows: the browser and OS label and the network prefix (/24, /48), never the address itself.
--   Deleted 90 days after they started (pg_cron).
-- - suspicious_sharing (the report), end_account_sessions ("Encerrar sessões"): staff of the account's
--   school, through private.staff_school / is_school_staff (aal2 when the account has a factor).
set local lock_timeout = '5s';

-- ── A lesson's video at the host ─────────────────────────────────────────────────────────────────
create table public.lesson_videos (
  lesson_id uuid primary key references public.lessons (id) on delete cascade,
  school_id uuid not null references public.schools (id) on delete cascade,
  -- The adapter that holds it (VIDEO_HOST: 'bunny'); another host is one file more in _shared/video-host.
  host text not null constraint lesson_videos_host_format check (host ~ '^[a-z][a-z0-9-]{0,39}$'),
  host_video_id text not null constraint lesson_videos_host_video_id_length check (length(host_video_id) between 1 and 200),
  status text not null default 'waiting' constraint lesson_videos_status_check check (status in ('waiting', 'processing', 'ready', 'failed')),
  percent integer not null default 0 constraint lesson_videos_percent_range check (percent between 0 and 100),
  -- The host's renditions when ready ('360p', '720p', …), for the player's "Qualidade" menu.
  renditions text[] not null default '{}' constraint lesson_videos_renditions_count check (cardinality(renditions) <= 20),
  duration_sec integer constraint lesson_videos_duration_sec_check check (duration_sec >= 0),
  failure_reason text constraint lesson_videos_failure_reason_length check (length(failure_reason) <= 500),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  ready_at timestamptz,
  constraint lesson_videos_host_video_key unique (host, host_video_id)
);
comment on table public.lesson_videos is 'A lesson''s video at the video host (one per lesson): the host''s id, its processing status and percent, renditions and failure reason. Written by the video-upload and video-webhook functions; staff of the school read it, students never.';
create index lesson_videos_school_id_idx on public.lesson_videos (school_id);

alter table public.lesson_videos enable row level security;
revoke all on public.lesson_videos from anon, authenticated, service_role;
grant select on public.lesson_videos to authenticated;
grant all on public.lesson_videos to service_role;
create policy lesson_videos_select on public.lesson_videos for select to authenticated
  using (school_id in (select private.staff_school_ids()) or (select private.is_super_admin()));
create policy lesson_videos_password_change on public.lesson_videos as restrictive for all to authenticated
  using (not (select private.password_change_pending()))
  with check (not (select private.password_change_pending()));
create trigger lesson_videos_touch before update on public.lesson_videos
  for each row execute function private.touch_timestamps();

-- ── Host videos to delete (replaced, or their lesson or video gone) ─────────────────────────────
-- No foreign keys: a deleted school's videos must still go from the host.
create table private.video_host_deletions (
  id uuid primary key default gen_random_uuid(),
  host text not null,
  host_video_id text not null,
  reason text not null constraint video_host_deletions_reason_check check (reason in ('replaced', 'removed')),
  queued_at timestamptz not null default now(),
  attempts integer not null default 0 constraint video_host_deletions_attempts_check check (attempts >= 0),
  next_attempt_at timestamptz not null default now(),
  last_error text constraint video_host_deletions_last_error_length check (length(last_error) <= 1000),
  constraint video_host_deletions_video_key unique (host, host_video_id)
);
comment on table private.video_host_deletions is 'Videos to delete at the video host (a lesson''s video replaced, removed or its lesson deleted), drained by the delete-host-videos function with retries.';
create index video_host_deletions_next_attempt_at_idx on private.video_host_deletions (next_attempt_at);
alter table private.video_host_deletions enable row level security;
revoke all on private.video_host_deletions from anon, authenticated, service_role;

create function private.lesson_videos_queue_deletion() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_op = 'UPDATE' and (old.host, old.host_video_id) is not distinct from (new.host, new.host_video_id) then
    return null;
  end if;
  insert into private.video_host_deletions (host, host_video_id, reason)
  values (old.host, old.host_video_id, case when tg_op = 'DELETE' then 'removed' else 'replaced' end)
  on conflict (host, host_video_id) do nothing;
  return null;
end $$;
revoke all on function private.lesson_videos_queue_deletion() from public, anon, authenticated, service_role;
create trigger lesson_videos_queue_deletion after update of host, host_video_id or delete on public.lesson_videos
  for each row execute function private.lesson_videos_queue_deletion();

-- The lesson stops pointing at its hosted video (another URL, a Storage upload, none): the row goes, and
-- with it the host's video.
create function private.lesson_contents_drop_hosted_video() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  delete from public.lesson_videos v where v.lesson_id = new.lesson_id;
  return null;
end $$;
revoke all on function private.lesson_contents_drop_hosted_video() from public, anon, authenticated, service_role;
create trigger lesson_contents_drop_hosted_video after update of video_url on public.lesson_contents
  for each row when (new.video_url is distinct from old.video_url and new.video_url is distinct from 'video-host')
  execute function private.lesson_contents_drop_hosted_video();

-- ── The school's settings ────────────────────────────────────────────────────────────────────────
create table public.school_video_settings (
  school_id uuid primary key references public.schools (id) on delete cascade,
  -- "Telas simultâneas": live playback sessions one account may hold.
  max_screens integer not null default 2 constraint school_video_settings_max_screens_range check (max_screens between 1 and 10),
  -- "Compartilhamento suspeito": an account seen on more than this many devices, or networks, in 7 days.
  sharing_max_devices integer not null default 4 constraint school_video_settings_sharing_max_devices_range check (sharing_max_devices between 2 and 50),
  sharing_max_networks integer not null default 5 constraint school_video_settings_sharing_max_networks_range check (sharing_max_networks between 2 and 50),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.school_video_settings is 'A school''s playback settings: simultaneous screens per account (Telas simultâneas, 1-10, default 2) and the devices and networks in 7 days above which the sharing report lists an account. No row: the defaults.';

alter table public.school_video_settings enable row level security;
revoke all on public.school_video_settings from anon, authenticated, service_role;
grant select, insert on public.school_video_settings to authenticated;
grant update (max_screens, sharing_max_devices, sharing_max_networks) on public.school_video_settings to authenticated;
grant all on public.school_video_settings to service_role;
create policy school_video_settings_select on public.school_video_settings for select to authenticated
  using (school_id in (select private.staff_school_ids()) or (select private.is_super_admin()));
create policy school_video_settings_insert on public.school_video_settings for insert to authenticated
  with check ((select private.is_school_staff(school_id)));
create policy school_video_settings_update on public.school_video_settings for update to authenticated
  using ((select private.is_school_staff(school_id)))
  with check ((select private.is_school_staff(school_id)));
create policy school_video_settings_password_change on public.school_video_settings as restrictive for all to authenticated
  using (not (select private.password_change_pending()))
  with check (not (select private.password_change_pending()));
create trigger school_video_settings_touch before update on public.school_video_settings
  for each row execute function private.touch_timestamps();

-- ── Playback sessions ────────────────────────────────────────────────────────────────────────────
-- The secret of the device and network hashes: made here, never leaves the database.
create table private.video_hash_salt (
  id boolean primary key default true constraint video_hash_salt_one_row check (id),
  salt bytea not null default extensions.gen_random_bytes(32)
);
comment on table private.video_hash_salt is 'The one secret (random, made by the migration) that salts the device and network hashes of playback sessions.';
alter table private.video_hash_salt enable row level security;
revoke all on private.video_hash_salt from anon, authenticated, service_role;
insert into private.video_hash_salt default values;

create table private.playback_sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  school_id uuid not null references public.schools (id) on delete cascade,
  lesson_id uuid references public.lessons (id) on delete set null,
  -- HMAC of the player's device id (or its user agent) and of the network prefix, per school.
  device_hash text not null constraint playback_sessions_device_hash_format check (device_hash ~ '^[0-9a-f]{64}$'),
  network_hash text not null constraint playback_sessions_network_hash_format check (network_hash ~ '^[0-9a-f]{64}$'),
  -- What the report shows: 'Chrome · Windows', and the address's network ('201.17.34.0/24').
  browser_label text not null default '' constraint playback_sessions_browser_label_length check (length(browser_label) <= 100),
  network_label text constraint playback_sessions_network_label_length check (length(network_label) <= 60),
  started_at timestamptz not null default now(),
  last_heartbeat_at timestamptz not null default now(),
  ended_at timestamptz,
  -- ended: the player stopped; taken_over: "Assistir aqui" elsewhere; replaced: the same device started
  -- again; timed_out: 90 s without a heartbeat; access_lost: the lesson's access ended while playing;
  -- signed_out: staff's "Encerrar sessões".
  end_reason text constraint playback_sessions_end_reason_check
    check (end_reason in ('ended', 'taken_over', 'replaced', 'timed_out', 'access_lost', 'signed_out')),
  constraint playback_sessions_ended_with_reason check ((ended_at is null) = (end_reason is null))
);
comment on table private.playback_sessions is 'One player that started a hosted lesson video: account, school, lesson, salted hashes of its device and network with the browser label and network prefix the sharing report shows, heartbeats, and when and why it ended. Deleted 90 days after it started.';
-- The account's live sessions (the screens limit), and its sessions in the report.
create index playback_sessions_live_idx on private.playback_sessions (user_id, started_at) where ended_at is null;
create index playback_sessions_user_id_started_at_idx on private.playback_sessions (user_id, started_at desc);
-- The report: a school's sessions of the last 7 days.
create index playback_sessions_school_id_started_at_idx on private.playback_sessions (school_id, started_at);
create index playback_sessions_lesson_id_idx on private.playback_sessions (lesson_id);
-- Retention.
create index playback_sessions_started_at_idx on private.playback_sessions (started_at);
alter table private.playback_sessions enable row level security;
revoke all on private.playback_sessions from anon, authenticated, service_role;

create function private.video_hash(p_school_id uuid, p_kind text, p_value text) returns text
language sql stable security definer set search_path = '' as $$
  select encode(extensions.hmac(convert_to(p_school_id::text || ':' || p_kind || ':' || coalesce(p_value, ''), 'UTF8'), s.salt, 'sha256'), 'hex')
    from private.video_hash_salt s
$$;
revoke all on function private.video_hash(uuid, text, text) from public, anon, authenticated, service_role;

-- The network of an address as the report shows it: IPv4 /24, IPv6 /48; null when it is not an address.
create function private.network_prefix(p_ip text) returns text
language plpgsql immutable set search_path = '' as $$
declare
  v inet;
begin
  begin
    v := btrim(p_ip)::inet;
  exception when others then
    return null;
  end;
  if host(v) ~ '^::ffff:[0-9.]+$' then
    v := substr(host(v), 8)::inet;
  end if;
  return network(set_masklen(v, case when family(v) = 6 then 48 else 24 end))::text;
end $$;
revoke all on function private.network_prefix(text) from public, anon, authenticated, service_role;

-- ── The functions' writes (service role) ─────────────────────────────────────────────────────────
-- The lesson staff may upload a video to, as the caller (video-upload asks it before it creates the video
-- at the host): its school and title, or no row.
create function public.lesson_video_upload_target(p_lesson_id uuid)
returns table (school_id uuid, title text)
language sql stable security definer set search_path = '' as $$
  select c.school_id, l.title
    from public.lessons l join public.courses c on c.id = l.course_id
   where l.id = p_lesson_id
     and not private.password_change_pending()
     and private.is_school_staff(c.school_id)
$$;
revoke all on function public.lesson_video_upload_target(uuid) from public, anon, authenticated, service_role;
grant execute on function public.lesson_video_upload_target(uuid) to authenticated, service_role;

-- The video just created at the host becomes the lesson's (waiting for its upload); the one it replaces
-- is queued for deletion by lesson_videos_queue_deletion.
create function public.record_lesson_video_upload(p_lesson_id uuid, p_host text, p_host_video_id text) returns void
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
        status = 'waiting', percent = 0, renditions = '{}', duration_sec = null, failure_reason = null, ready_at = null;
end $$;
revoke all on function public.record_lesson_video_upload(uuid, text, text) from public, anon, authenticated, service_role;
grant execute on function public.record_lesson_video_upload(uuid, text, text) to service_role;

-- A verified webhook's news about a host video. Late progress never undoes ready or failed; the percent
-- only grows. A video no lesson holds any more (replaced, deleted) changes nothing: false.
create function public.record_lesson_video_status(
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
         ready_at = case when p_state = 'ready' then coalesce(v.ready_at, now()) else v.ready_at end
   where lesson_id = v.lesson_id;
  -- The lesson's length, when staff did not give one.
  if p_state = 'ready' and p_duration_sec > 0 then
    update public.lessons set duration_sec = p_duration_sec where id = v.lesson_id and duration_sec = 0;
  end if;
  return true;
end $$;
revoke all on function public.record_lesson_video_status(text, text, text, integer, text[], integer, text) from public, anon, authenticated, service_role;
grant execute on function public.record_lesson_video_status(text, text, text, integer, text[], integer, text) to service_role;

-- delete-host-videos takes a batch (leased: the next attempt moves 2^attempts minutes away, at most a day,
-- so two calls never take the same video) and reports each: done (the row goes) or the error (it waits).
create function public.claim_video_host_deletions(p_limit integer default 20)
returns table (id uuid, host text, host_video_id text, attempts integer)
language plpgsql security definer set search_path = '' as $$
begin
  return query
  with due as (
    select d.id from private.video_host_deletions d
     where d.next_attempt_at <= now()
     order by d.next_attempt_at
     limit least(greatest(coalesce(p_limit, 20), 1), 100)
     for update skip locked
  )
  update private.video_host_deletions d
     set attempts = d.attempts + 1,
         next_attempt_at = now() + least(interval '1 minute' * power(2, least(d.attempts, 20)), interval '1 day')
    from due where d.id = due.id
  returning d.id, d.host, d.host_video_id, d.attempts;
end $$;
revoke all on function public.claim_video_host_deletions(integer) from public, anon, authenticated, service_role;
grant execute on function public.claim_video_host_deletions(integer) to service_role;

create function public.finish_video_host_deletion(p_id uuid, p_error text default null) returns void
language plpgsql security definer set search_path = '' as $$
begin
  if p_error is null then
    delete from private.video_host_deletions where id = p_id;
  else
    update private.video_host_deletions set last_error = left(p_error, 1000) where id = p_id;
  end if;
end $$;
revoke all on function public.finish_video_host_deletion(uuid, text) from public, anon, authenticated, service_role;
grant execute on function public.finish_video_host_deletion(uuid, text) to service_role;

-- ── Playback (video-playback calls it as the viewer: one round trip) ─────────────────────────────
-- p_action: start | takeover ("Assistir aqui": the oldest live sessions end) | heartbeat | end.
-- Answers jsonb { status, … } rather than raising, so what it ended stays ended:
--   ok { session_id, limit } · too_many_screens { limit } · session_ended · no_access (also: signed out,
--   no such lesson) · no_video · not_ready { video_status, percent }.
-- Access is sign-lesson-file's (can_read_course_object for a lesson's file): no password change pending,
-- and private.has_lesson_access (staff of the school, or enrolled, active, not expired, module released,
-- or a preview). A live session has had a heartbeat in the last 90 s. The viewer's device id, address and
-- browser label come from the function; a caller of this RPC can only make up its own sessions' data and
-- never gets a playback URL from it.
create function public.video_playback(
  p_lesson_id uuid, p_action text, p_session_id uuid default null,
  p_device text default null, p_ip text default null, p_browser text default null
) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_user uuid := auth.uid();
  v_jwt_session uuid := private.uuid_or_null(auth.jwt() ->> 'session_id');
  v_video public.lesson_videos;
  v_limit integer;
  v_session private.playback_sessions;
  v_live integer;
  v_device text;
  v_network text;
  v_id uuid;
begin
  if p_action is null or p_action not in ('start', 'takeover', 'heartbeat', 'end') then
    raise exception 'invalid action %', p_action using errcode = '22023';
  end if;
  if p_action = 'end' then
    update private.playback_sessions set ended_at = now(), end_reason = 'ended'
     where id = p_session_id and user_id = v_user and ended_at is null;
    return jsonb_build_object('status', 'ended');
  end if;

  -- The account signed out everywhere ("Encerrar sessões"): its access tokens live on until they expire,
  -- but their session is gone.
  if v_user is null or private.password_change_pending() or not private.has_lesson_access(p_lesson_id)
     or (v_jwt_session is not null and not exists (select 1 from auth.sessions s where s.id = v_jwt_session)) then
    if p_action = 'heartbeat' then
      update private.playback_sessions set ended_at = now(), end_reason = 'access_lost'
       where id = p_session_id and user_id = v_user and ended_at is null;
    end if;
    return jsonb_build_object('status', 'no_access');
  end if;

  select * into v_video from public.lesson_videos v where v.lesson_id = p_lesson_id;
  if not found then
    return jsonb_build_object('status', 'no_video');
  end if;
  if v_video.status <> 'ready' then
    return jsonb_build_object('status', 'not_ready', 'video_status', v_video.status, 'percent', v_video.percent);
  end if;
  v_limit := coalesce((select s.max_screens from public.school_video_settings s where s.school_id = v_video.school_id), 2);

  if p_action = 'heartbeat' then
    select * into v_session from private.playback_sessions s
     where s.id = p_session_id and s.user_id = v_user and s.lesson_id = p_lesson_id
     for update;
    if not found or v_session.ended_at is not null then
      return jsonb_build_object('status', 'session_ended');
    end if;
    if v_session.last_heartbeat_at < now() - interval '90 seconds' then
      update private.playback_sessions set ended_at = last_heartbeat_at + interval '90 seconds', end_reason = 'timed_out'
       where id = v_session.id;
      return jsonb_build_object('status', 'session_ended');
    end if;
    update private.playback_sessions set last_heartbeat_at = now() where id = v_session.id;
    return jsonb_build_object('status', 'ok', 'session_id', v_session.id, 'limit', v_limit);
  end if;

  -- start / takeover: one at a time per account, so two players starting together cannot both fit.
  perform pg_advisory_xact_lock(hashtextextended('video_playback:' || v_user::text, 0));
  v_device := private.video_hash(v_video.school_id, 'device', left(coalesce(nullif(btrim(p_device), ''), p_browser, ''), 200));
  v_network := private.network_prefix(left(p_ip, 100));
  update private.playback_sessions s
     set ended_at = case when s.last_heartbeat_at < now() - interval '90 seconds' then s.last_heartbeat_at + interval '90 seconds' else now() end,
         end_reason = case when s.last_heartbeat_at < now() - interval '90 seconds' then 'timed_out' else 'replaced' end
   where s.user_id = v_user and s.ended_at is null
     and (s.last_heartbeat_at < now() - interval '90 seconds' or s.device_hash = v_device);
  select count(*) into v_live from private.playback_sessions s where s.user_id = v_user and s.ended_at is null;
  if v_live >= v_limit then
    if p_action = 'start' then
      return jsonb_build_object('status', 'too_many_screens', 'limit', v_limit);
    end if;
    update private.playback_sessions set ended_at = now(), end_reason = 'taken_over'
     where id in (select s.id from private.playback_sessions s
                   where s.user_id = v_user and s.ended_at is null
                   order by s.started_at, s.id
                   limit v_live - v_limit + 1);
  end if;
  insert into private.playback_sessions (user_id, school_id, lesson_id, device_hash, network_hash, browser_label, network_label)
  values (v_user, v_video.school_id, p_lesson_id, v_device, private.video_hash(v_video.school_id, 'network', v_network),
          left(coalesce(btrim(p_browser), ''), 100), v_network)
  returning id into v_id;
  return jsonb_build_object('status', 'ok', 'session_id', v_id, 'limit', v_limit);
end $$;
revoke all on function public.video_playback(uuid, text, uuid, text, text, text) from public, anon, authenticated, service_role;
grant execute on function public.video_playback(uuid, text, uuid, text, text, text) to authenticated;

-- ── "Compartilhamento suspeito" and its actions (staff) ──────────────────────────────────────────
-- Accounts of the school seen on more than sharing_max_devices devices or sharing_max_networks networks
-- in the last 7 days, most devices and networks first, a page at a time (total_count: all of them), each
-- with its latest 50 sessions of those days (session_count: all of them). `device` is a short tag of the
-- device hash: equal tags, same device.
create function public.suspicious_sharing(p_school_id uuid default null, p_limit integer default 24, p_offset integer default 0)
returns table (
  user_id uuid, name text, email text, is_active boolean, devices integer, networks integer,
  session_count integer, last_seen_at timestamptz, sessions jsonb, total_count bigint
)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid;
  v_devices integer;
  v_networks integer;
begin
  perform private.refuse_while_password_change_pending();
  v_school := private.staff_school(p_school_id);
  select coalesce(s.sharing_max_devices, 4), coalesce(s.sharing_max_networks, 5) into v_devices, v_networks
    from (select 1) one left join public.school_video_settings s on s.school_id = v_school;
  return query
  with recent as (
    select ps.* from private.playback_sessions ps
     where ps.school_id = v_school and ps.started_at > now() - interval '7 days'
  ),
  accounts as (
    select r.user_id, count(distinct r.device_hash)::integer as devices, count(distinct r.network_hash)::integer as networks,
           count(*)::integer as session_count, max(r.last_heartbeat_at) as last_seen_at
      from recent r
     group by r.user_id
    having count(distinct r.device_hash) > v_devices or count(distinct r.network_hash) > v_networks
  ),
  page as (
    select a.*, count(*) over () as total_count from accounts a
     order by a.devices + a.networks desc, a.last_seen_at desc, a.user_id
     limit least(greatest(coalesce(p_limit, 24), 1), 100) offset greatest(coalesce(p_offset, 0), 0)
  )
  select p.user_id, pr.name, pr.email, pr.is_active, p.devices, p.networks, p.session_count, p.last_seen_at,
         (select coalesce(jsonb_agg(jsonb_build_object(
                   'id', x.id, 'device', left(x.device_hash, 8), 'browser', x.browser_label, 'network', x.network_label,
                   'lesson_id', x.lesson_id, 'lesson_title', l.title,
                   'started_at', x.started_at, 'last_heartbeat_at', x.last_heartbeat_at,
                   'ended_at', coalesce(x.ended_at, case when x.last_heartbeat_at < now() - interval '90 seconds'
                                                         then x.last_heartbeat_at + interval '90 seconds' end),
                   'end_reason', coalesce(x.end_reason, case when x.last_heartbeat_at < now() - interval '90 seconds' then 'timed_out' end))
                 order by x.started_at desc), '[]'::jsonb)
            from (select r.* from recent r where r.user_id = p.user_id order by r.started_at desc limit 50) x
            left join public.lessons l on l.id = x.lesson_id) as sessions,
         p.total_count
    from page p join public.profiles pr on pr.id = p.user_id
   order by p.devices + p.networks desc, p.last_seen_at desc, p.user_id;
end $$;
revoke all on function public.suspicious_sharing(uuid, integer, integer) from public, anon, authenticated, service_role;
grant execute on function public.suspicious_sharing(uuid, integer, integer) to authenticated;

-- "Encerrar sessões": the student's playback sessions end and every sign-in of the account goes (its
-- refresh tokens with it, on both engines: auth.refresh_tokens.session_id cascades). Its access tokens
-- keep working until they expire (at most an hour, jwt_expiry) except for playback, which checks the
-- session. Staff of the student's school only (is_school_staff: aal2 when the account has a factor), and
-- only students: staff accounts are not signed out by their peers (as profiles_update, has_any_role).
-- Answers how many playback sessions ended. "Desativar conta" is the students page's own: profiles.is_active.
create function public.end_account_sessions(p_user_id uuid) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  v_school uuid;
  v_ended integer;
begin
  perform private.refuse_while_password_change_pending();
  select p.school_id into v_school from public.profiles p where p.id = p_user_id;
  if v_school is null or not private.is_school_staff(v_school) or private.has_any_role(p_user_id) then
    raise exception 'Sem permissão para encerrar as sessões desta conta.' using errcode = '42501';
  end if;
  update private.playback_sessions set ended_at = now(), end_reason = 'signed_out'
   where user_id = p_user_id and ended_at is null;
  get diagnostics v_ended = row_count;
  delete from auth.sessions where user_id = p_user_id;
  return v_ended;
end $$;
revoke all on function public.end_account_sessions(uuid) from public, anon, authenticated, service_role;
grant execute on function public.end_account_sessions(uuid) to authenticated;

-- ── Schedules ────────────────────────────────────────────────────────────────────────────────────
create function private.delete_old_playback_sessions() returns integer
language sql security definer set search_path = '' as $$
  with gone as (delete from private.playback_sessions where started_at < now() - interval '90 days' returning 1)
  select count(*)::integer from gone
$$;
revoke all on function private.delete_old_playback_sessions() from public, anon, authenticated, service_role;

select cron.schedule('delete-old-playback-sessions', '23 4 * * *', 'select private.delete_old_playback_sessions()');

-- As send-emails (20261126000500): pg_net calls the function, only while a deletion is due.
select cron.schedule('delete-host-videos', '* * * * *', $job$
  select net.http_post(
    url := (select decrypted_secret from vault.decrypted_secrets where name = 'project_url') || '/functions/v1/delete-host-videos',
    headers := jsonb_build_object(
      'Content-Type', 'application/json',
      'Authorization', 'Bearer ' || (select decrypted_secret from vault.decrypted_secrets where name = 'service_role_key')),
    body := '{}'::jsonb,
    timeout_milliseconds := 60000)
  where exists (select 1 from private.video_host_deletions where next_attempt_at <= now());
$job$);

-- Issue 39, after 20261128002002 and 003000 (the outside attacker's findings):
-- 1. A playback session was not tied to the screen that started it: a heartbeat checked the account, the
--    lesson and that the session was alive, so a group sharing one login passed one session id around and
--    each member kept it alive from home (six networks on one session got past "Telas simultâneas" and
--    stayed out of "Compartilhamento suspeito"). Now a heartbeat from another device (device id, or the
--    browser without one) or another network (/24, /48) than the session's start ends it ('moved') and
--    answers session_ended: the player must start again, and that start counts against the limit and in
--    the report. A phone moving from Wi-Fi to 4G pays one restart.
-- 2. public.video_playback was granted to authenticated: a student called it through REST with a made-up
--    device, address and browser. Now only the service role calls it (video-playback), passing the caller
--    it verified: the account and sign-in of the JWT (the functions gateway checked its signature and
--    expiry), the token's aal, the address and the browser it saw. The function runs the same access
--    helpers as that account (the claims are set for this transaction), and refuses a sign-in that no
--    longer exists or is another account's. It also answers the host's video id, so playback stays one
--    round trip to the database.
-- Students play lesson_videos.playing_host_video_id (003000): a replacement being processed does not stop
-- the lesson. Otherwise the function is 20261128002002's.
set local lock_timeout = '5s';

alter table private.playback_sessions drop constraint playback_sessions_end_reason_check;
-- moved: a heartbeat came from another device or network than the session's start.
alter table private.playback_sessions add constraint playback_sessions_end_reason_check
  check (end_reason in ('ended', 'taken_over', 'replaced', 'timed_out', 'access_lost', 'signed_out', 'moved'));

-- A takeover ("Assistir aqui" that ends another screen) is capped at 20 an hour per account, below the 120
-- starts (a group on one login taking turns without heartbeats; video-playback signs URLs for 90 s so a screen
-- taken over stops within one URL life): a session says whether its start took a screen over.
alter table private.playback_sessions add column took_over boolean not null default false;
comment on column private.playback_sessions.took_over is
  'Started by "Assistir aqui" ending another of the account''s screens (at most 20 an hour).';

drop function public.video_playback(uuid, text, uuid, text, text, text);

-- p_action: start | takeover ("Assistir aqui": the oldest live sessions end) | heartbeat | end.
-- Answers jsonb { status, … }:
--   ok { session_id, limit, host, host_video_id } · too_many_screens { limit } · session_ended · no_access
--   (also: signed out, no such lesson) · no_video · not_ready { video_status, percent } · too_many_starts ·
--   too_many_takeovers · ended. A pending password change raises 42501 'Troque sua senha antes de continuar.'.
create function public.video_playback(
  p_user_id uuid, p_auth_session uuid, p_aal text, p_lesson_id uuid, p_action text,
  p_session_id uuid default null, p_device text default null, p_ip text default null, p_browser text default null
) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_video public.lesson_videos;
  v_limit integer;
  v_session private.playback_sessions;
  v_live integer;
  v_device text;
  v_network text;
  v_network_hash text;
  v_id uuid;
begin
  if p_user_id is null or p_action is null or p_action not in ('start', 'takeover', 'heartbeat', 'end') then
    raise exception 'invalid call: user %, action %', p_user_id, p_action using errcode = '22023';
  end if;
  -- The viewer's claims for this transaction: the helpers below (auth.uid(), the second factor's aal) then
  -- decide exactly as for the account itself.
  perform set_config('request.jwt.claims', jsonb_build_object(
    'sub', p_user_id, 'role', 'authenticated', 'aal', coalesce(p_aal, 'aal1'), 'session_id', p_auth_session)::text, true);
  perform private.refuse_while_password_change_pending();
  if p_action = 'end' then
    update private.playback_sessions set ended_at = now(), end_reason = 'ended'
     where id = p_session_id and user_id = p_user_id and ended_at is null;
    return jsonb_build_object('status', 'ended');
  end if;

  -- The sign-in must still exist and be this account's ("Encerrar sessões" deletes it while its access
  -- tokens live on until they expire).
  if p_auth_session is null
     or not exists (select 1 from auth.sessions s where s.id = p_auth_session and s.user_id = p_user_id)
     or not private.has_lesson_access(p_lesson_id) then
    if p_action = 'heartbeat' then
      update private.playback_sessions set ended_at = now(), end_reason = 'access_lost'
       where id = p_session_id and user_id = p_user_id and ended_at is null;
    end if;
    return jsonb_build_object('status', 'no_access');
  end if;

  select * into v_video from public.lesson_videos v where v.lesson_id = p_lesson_id;
  if not found then
    return jsonb_build_object('status', 'no_video');
  end if;
  if v_video.playing_host_video_id is null then
    return jsonb_build_object('status', 'not_ready', 'video_status', v_video.status, 'percent', v_video.percent);
  end if;
  v_limit := coalesce((select s.max_screens from public.school_video_settings s where s.school_id = v_video.school_id), 2);
  v_device := private.video_hash(v_video.school_id, 'device', left(coalesce(nullif(btrim(p_device), ''), p_browser, ''), 200));
  v_network := private.network_prefix(left(p_ip, 100));
  v_network_hash := private.video_hash(v_video.school_id, 'network', v_network);

  if p_action = 'heartbeat' then
    select * into v_session from private.playback_sessions s
     where s.id = p_session_id and s.user_id = p_user_id and s.lesson_id = p_lesson_id
     for update;
    if not found or v_session.ended_at is not null then
      return jsonb_build_object('status', 'session_ended');
    end if;
    if v_session.last_heartbeat_at < now() - interval '90 seconds' then
      update private.playback_sessions set ended_at = last_heartbeat_at + interval '90 seconds', end_reason = 'timed_out'
       where id = v_session.id;
      return jsonb_build_object('status', 'session_ended');
    end if;
    -- The session is the screen that started it: another device or network holding its id ends it.
    if v_session.device_hash <> v_device or v_session.network_hash <> v_network_hash then
      update private.playback_sessions set ended_at = now(), end_reason = 'moved' where id = v_session.id;
      return jsonb_build_object('status', 'session_ended');
    end if;
    update private.playback_sessions set last_heartbeat_at = now() where id = v_session.id;
    return jsonb_build_object('status', 'ok', 'session_id', v_session.id, 'limit', v_limit,
                              'host', v_video.host, 'host_video_id', v_video.playing_host_video_id);
  end if;

  -- start / takeover: one at a time per account, so two players starting together cannot both fit.
  perform pg_advisory_xact_lock(hashtextextended('video_playback:' || p_user_id::text, 0));
  -- Every start keeps a row for 90 days: an account starts at most 120 an hour.
  if (select count(*) from (select 1 from private.playback_sessions s
                             where s.user_id = p_user_id and s.started_at > now() - interval '1 hour' limit 120) recent) >= 120 then
    return jsonb_build_object('status', 'too_many_starts');
  end if;
  update private.playback_sessions s
     set ended_at = case when s.last_heartbeat_at < now() - interval '90 seconds' then s.last_heartbeat_at + interval '90 seconds' else now() end,
         end_reason = case when s.last_heartbeat_at < now() - interval '90 seconds' then 'timed_out' else 'replaced' end
   where s.user_id = p_user_id and s.ended_at is null
     and (s.last_heartbeat_at < now() - interval '90 seconds' or s.device_hash = v_device);
  select count(*) into v_live from private.playback_sessions s where s.user_id = p_user_id and s.ended_at is null;
  if v_live >= v_limit then
    if p_action = 'start' then
      return jsonb_build_object('status', 'too_many_screens', 'limit', v_limit);
    end if;
    -- "Assistir aqui" that ends another screen: at most 20 an hour per account.
    if (select count(*) from (select 1 from private.playback_sessions s
                               where s.user_id = p_user_id and s.started_at > now() - interval '1 hour' and s.took_over
                               limit 20) recent) >= 20 then
      return jsonb_build_object('status', 'too_many_takeovers');
    end if;
    update private.playback_sessions set ended_at = now(), end_reason = 'taken_over'
     where id in (select s.id from private.playback_sessions s
                   where s.user_id = p_user_id and s.ended_at is null
                   order by s.started_at, s.id
                   limit v_live - v_limit + 1);
  end if;
  insert into private.playback_sessions (user_id, school_id, lesson_id, device_hash, network_hash, browser_label, network_label, took_over)
  values (p_user_id, v_video.school_id, p_lesson_id, v_device, v_network_hash, left(coalesce(btrim(p_browser), ''), 100), v_network,
          v_live >= v_limit)
  returning id into v_id;
  return jsonb_build_object('status', 'ok', 'session_id', v_id, 'limit', v_limit,
                            'host', v_video.host, 'host_video_id', v_video.playing_host_video_id);
end $$;
revoke all on function public.video_playback(uuid, uuid, text, uuid, text, uuid, text, text, text) from public, anon, authenticated, service_role;
grant execute on function public.video_playback(uuid, uuid, text, uuid, text, uuid, text, text, text) to service_role;

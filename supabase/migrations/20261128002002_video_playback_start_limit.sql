-- Issue 39, after 20261128002001: every start of a playback session keeps a row for 90 days, and nothing
-- bounded how many one account could make (a script calling video_playback in a loop, each start with a
-- new device id, grows private.playback_sessions without end). Now an account starts at most 120 sessions
-- an hour ('too_many_starts'; video-playback answers 429); a player starts one per lesson it opens.
-- Otherwise the same function as 20261128002001.
set local lock_timeout = '5s';

create or replace function public.video_playback(
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
  perform private.refuse_while_password_change_pending();
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
  if v_user is null or not private.has_lesson_access(p_lesson_id)
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
  -- Every start keeps a row for 90 days: an account starts at most 120 an hour (a player starts once per
  -- lesson it opens; a script calling this in a loop would otherwise grow the table without bound).
  if (select count(*) from (select 1 from private.playback_sessions s
                             where s.user_id = v_user and s.started_at > now() - interval '1 hour' limit 120) recent) >= 120 then
    return jsonb_build_object('status', 'too_many_starts');
  end if;
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

// The playback session of a lesson's hosted video (issue 39, docs/video.md): `start` when the player
// opens, a `heartbeat` every renewAfterSeconds while it is open (each answers a new playback URL, which
// the player moves its requests to without loading the video again), and `end` when it closes or the
// page goes (a keepalive request). "Assistir aqui" is `takeover`: it ends the account's oldest screens.
// A refusal stops the picture and says why; no answer (offline, a failed server) is asked again.
import { useEffect, useRef, useState } from 'react';
import { SUPABASE_ANON_KEY, SUPABASE_URL } from '@/platform/api-config';
import { useSession } from '@/platform/session';
import { endVideoPlayback, requestVideoPlayback, type PlaybackAction } from '../api/queries';
import { playbackDeviceId } from '../lib/hosted-playback';

/** Until the server answers again after no answer. */
export const PLAYBACK_RETRY_MS = 5_000;

export type HostedPlaybackState =
  | { status: 'starting' }
  /** `src`: the session's first playback URL, the player's source; `latestUrl()` the newest. */
  | { status: 'playing'; src: string }
  | { status: 'too_many_screens'; message: string }
  | { status: 'session_ended' }
  | { status: 'processing'; failed: boolean }
  | { status: 'refused'; message: string }
  | { status: 'unreachable' };

export function useHostedPlayback(lessonId: string) {
  const { session } = useSession();
  const accessToken = useRef(session?.access_token);
  useEffect(() => {
    accessToken.current = session?.access_token;
  });
  // Each run is one start (or takeover) and its heartbeats; a new run ends the one before.
  const [run, setRun] = useState<{ action: 'start' | 'takeover'; n: number }>({ action: 'start', n: 0 });
  const [answered, setAnswered] = useState<{ n: number; state: HostedPlaybackState } | null>(null);
  const latestUrl = useRef<string | null>(null);

  useEffect(() => {
    let live = true;
    let sessionId: string | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deviceId = playbackDeviceId();
    const show = (state: HostedPlaybackState) => setAnswered({ n: run.n, state });
    const end = () => {
      if (sessionId && accessToken.current)
        void endVideoPlayback(
          { url: SUPABASE_URL, anonKey: SUPABASE_ANON_KEY, accessToken: accessToken.current },
          { lessonId, sessionId },
        );
      sessionId = null;
    };
    const ask = async (action: PlaybackAction) => {
      const answer = await requestVideoPlayback({ lessonId, action, sessionId, deviceId });
      if (!live) {
        // The player closed while its start was on its way: free the screen it was given.
        if (answer.kind === 'granted' && action !== 'heartbeat') {
          sessionId = answer.grant.sessionId;
          end();
        }
        return;
      }
      if (answer.kind === 'granted') {
        sessionId = answer.grant.sessionId;
        latestUrl.current = answer.grant.playbackUrl;
        if (action !== 'heartbeat') show({ status: 'playing', src: answer.grant.playbackUrl });
        timer = setTimeout(() => void ask('heartbeat'), answer.grant.renewAfterSeconds * 1000);
        return;
      }
      if (answer.kind === 'unreachable') {
        // Asked again shortly; while a heartbeat waits, the URL in hand keeps playing (it lives 90 s).
        timer = setTimeout(() => void ask(action), PLAYBACK_RETRY_MS);
        if (action !== 'heartbeat') show({ status: 'unreachable' });
        return;
      }
      sessionId = null;
      show(
        answer.kind === 'session_ended'
          ? { status: 'session_ended' }
          : answer.kind === 'processing'
            ? { status: 'processing', failed: answer.failed }
            : { status: answer.kind, message: answer.message },
      );
    };
    void ask(run.action);
    // Closing the page frees its screen; coming back to it from the browser's history starts again.
    const onPageHide = () => {
      clearTimeout(timer);
      end();
    };
    const onPageShow = (e: PageTransitionEvent) => {
      if (e.persisted) setRun((r) => ({ action: 'start', n: r.n + 1 }));
    };
    window.addEventListener('pagehide', onPageHide);
    window.addEventListener('pageshow', onPageShow);
    return () => {
      live = false;
      clearTimeout(timer);
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('pageshow', onPageShow);
      end();
    };
  }, [lessonId, run]);

  const state: HostedPlaybackState = answered?.n === run.n ? answered.state : { status: 'starting' };
  return {
    state,
    /** The newest playback URL of the session (the heartbeats' answers). */
    latestUrl,
    /** "Assistir aqui": a new session here, ending the account's oldest ones if the screens are taken. */
    watchHere: () => setRun((r) => ({ action: 'takeover', n: r.n + 1 })),
    retry: () => setRun((r) => ({ action: 'start', n: r.n + 1 })),
  };
}

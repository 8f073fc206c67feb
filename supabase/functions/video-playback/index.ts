// video-playback (issue 39): the playback URL of a lesson's hosted video, and the session that holds
// one of the account's screens ("Telas simultâneas"). The player starts a session, renews it with a
// heartbeat every renewAfterSeconds (each answer carries a new URL), and ends it when it stops.
//
// The database decides in one call (public.video_playback, service role only: access exactly as
// sign-lesson-file's can_sign_lesson_file, the screens limit, the session's heartbeat rule, and the host's
// video id), with the caller this function verified: the account and sign-in of the JWT (an asymmetric
// token checked here against the project's keys, an HS256 one by the functions gateway, verify_jwt in
// config.toml; the database checks the sign-in is still that account's), the address (clientAddress) and
// the browser. A session is the screen that started
// it: a heartbeat from another device or network ends it. The URL is signed only when the database said
// ok; it lives PLAYBACK_URL_SECONDS (90 s: three heartbeats), bound to the viewer's address (VIDEO_URL_BIND_IP).
//
// POST { lessonId, action: 'start' | 'takeover' | 'heartbeat' | 'end', sessionId?, deviceId? }
//   deviceId: the player's own random id (kept in the browser), sent on start and on every heartbeat, so
//   one device counts once in the report and starting again on it replaces its older session; without it
//   the User-Agent stands for it.
//   start, takeover ("Assistir aqui": ends the oldest live sessions), heartbeat (sessionId) →
//     200 { sessionId, playbackUrl, expiresAt, renewAfterSeconds }
//   end (sessionId) → 200 { ended: true }
//   409 { code: 'too_many_screens', limit, error/message: 'Você já está assistindo em 2 dispositivos.' }
//   409 { code: 'session_ended', error/message }: no heartbeat for 90 s, taken over elsewhere, ended, or a
//     heartbeat from another device or network than the session's start
//   409 { code: 'video_processing', status, percent, error/message }: not ready yet (or failed)
//   429 more than 120 starts by the account in an hour, or more than 20 takeovers that ended another screen
//   400 invalid input · 401 no valid session · 403 a password change is pending (the database's message)
//   404 no such video, or no access to it (not told apart)
import { createClient } from 'npm:@supabase/supabase-js@2.109.0';
import { clientAddress, HttpError, json, readJsonBody, serve } from '../_shared/http.ts';
import { env, serviceClient } from '../_shared/supabase.ts';
import { videoHost } from '../_shared/video-host/index.ts';
import { browserLabel } from './browser.ts';

const ACTIONS = ['start', 'takeover', 'heartbeat', 'end'] as const;
type Action = (typeof ACTIONS)[number];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * A playback URL's life: two heartbeats may be lost without the picture stopping, and a screen whose
 * session ended (taken over, signed out) stops within it: the URL is not revoked with its session, so
 * "Telas simultâneas" holds to within one URL life.
 */
const PLAYBACK_URL_SECONDS = 90;
const HEARTBEAT_SECONDS = 30;
/**
 * The URL is bound to the viewer's address (Bunny: the pull zone's Token IP validation, which must then
 * be on) unless VIDEO_URL_BIND_IP=false: for audiences that reach the functions and the CDN from different
 * addresses (dual-stack IPv6/IPv4, several NAT exits), whose bound URLs the CDN would refuse.
 */
const BIND_VIEWER_IP = Deno.env.get('VIDEO_URL_BIND_IP')?.trim().toLowerCase() !== 'false';

type Decision =
  | { status: 'ok'; session_id: string; limit: number; host: string; host_video_id: string }
  | { status: 'too_many_screens'; limit: number }
  | { status: 'not_ready'; video_status: string; percent: number }
  | { status: 'session_ended' | 'no_access' | 'no_video' | 'ended' | 'too_many_starts' | 'too_many_takeovers' };

/** The project's Auth client, kept between requests so the signing keys (JWKS) it fetched stay cached. */
let authClient: ReturnType<typeof createClient>['auth'] | null = null;

/**
 * The signed-in caller of the bearer token: its account, sign-in and aal. A token signed with the
 * project's asymmetric key (ES256/RS256) is verified here against the project's published keys (cached:
 * no round trip after the first); a legacy HS256 one was verified by the functions gateway before this
 * function ran (verify_jwt, on for this function in config.toml), which is the only check of those. Either
 * way the database then requires its sign-in (session_id) to exist and belong to `sub`.
 */
async function callerOf(authorization: string): Promise<{ userId: string; authSession: string | null; aal: string }> {
  const token = authorization.replace(/^Bearer\s+/i, '');
  const part = (i: number) => {
    const b64 = (token.split('.')[i] ?? '').replace(/-/g, '+').replace(/_/g, '/');
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)))) as Record<string, unknown>;
  };
  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    [header, claims] = [part(0), part(1)];
  } catch {
    throw new HttpError(401, 'Não autenticado');
  }
  if (header.alg !== 'HS256') {
    authClient ??= createClient(env('SUPABASE_URL'), env('SUPABASE_ANON_KEY'), {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    }).auth;
    const verified = await authClient.getClaims(token);
    if (verified.error || !verified.data) throw new HttpError(401, 'Não autenticado');
    claims = verified.data.claims as unknown as Record<string, unknown>;
  }
  const sub = claims.sub;
  if (claims.role !== 'authenticated' || typeof sub !== 'string' || !UUID.test(sub)) throw new HttpError(401, 'Não autenticado');
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) throw new HttpError(401, 'Não autenticado');
  const session = claims.session_id;
  return {
    userId: sub,
    authSession: typeof session === 'string' && UUID.test(session) ? session : null,
    aal: claims.aal === 'aal2' ? 'aal2' : 'aal1',
  };
}

/** HttpError whose body also says `message` and `code`, as the player reads them. */
function conflict(code: string, message: string, extra: Record<string, unknown> = {}): HttpError {
  return new HttpError(409, message, { code, message, ...extra });
}

serve(async (req) => {
  const authorization = req.headers.get('authorization') ?? '';
  if (!/^Bearer\s+\S/i.test(authorization)) throw new HttpError(401, 'Não autenticado');
  const body = await readJsonBody(req, 4096);
  const lessonId = body.lessonId;
  if (typeof lessonId !== 'string' || !UUID.test(lessonId)) throw new HttpError(400, 'Aula inválida', { field: 'lessonId' });
  const action = body.action as Action;
  if (!ACTIONS.includes(action)) throw new HttpError(400, 'Ação inválida', { field: 'action' });
  const sessionId = body.sessionId ?? null;
  if (sessionId !== null && (typeof sessionId !== 'string' || !UUID.test(sessionId))) throw new HttpError(400, 'Sessão inválida', { field: 'sessionId' });
  if ((action === 'heartbeat' || action === 'end') && !sessionId) throw new HttpError(400, 'Informe a sessão', { field: 'sessionId' });
  const deviceId = body.deviceId ?? null;
  if (deviceId !== null && (typeof deviceId !== 'string' || deviceId.length > 200)) throw new HttpError(400, 'Dispositivo inválido', { field: 'deviceId' });

  const caller = await callerOf(authorization);
  const userAgent = req.headers.get('user-agent') ?? '';
  const viewerIp = clientAddress(req);
  const decision = await serviceClient().rpc('video_playback', {
    p_user_id: caller.userId,
    p_auth_session: caller.authSession,
    p_aal: caller.aal,
    p_lesson_id: lessonId,
    p_action: action,
    p_session_id: sessionId,
    p_device: deviceId || userAgent,
    p_ip: viewerIp ?? null,
    p_browser: browserLabel(userAgent),
  });
  if (decision.error) {
    // 42501 from the database: 'Troque sua senha antes de continuar.' (a password change is pending).
    if (decision.error.code === '42501') throw new HttpError(403, decision.error.message);
    throw new Error(`video_playback: ${decision.error.message}`);
  }
  const answer = decision.data as Decision;
  switch (answer.status) {
    case 'ended':
      return json({ ended: true });
    case 'no_access':
    case 'no_video':
      throw new HttpError(404, 'Vídeo não encontrado');
    case 'not_ready':
      throw conflict(
        'video_processing',
        answer.video_status === 'failed' ? 'Falha ao processar o vídeo' : 'O vídeo desta aula ainda está sendo processado.',
        { status: answer.video_status, percent: answer.percent },
      );
    case 'too_many_screens':
      throw conflict('too_many_screens', `Você já está assistindo em ${answer.limit} ${answer.limit === 1 ? 'dispositivo' : 'dispositivos'}.`, { limit: answer.limit });
    case 'too_many_starts':
      throw new HttpError(429, 'Muitas tentativas de assistir em pouco tempo. Aguarde alguns minutos.');
    case 'too_many_takeovers':
      throw new HttpError(429, 'Você usou "Assistir aqui" muitas vezes na última hora. Continue em um dos dispositivos em que já está assistindo ou aguarde alguns minutos.');
    case 'session_ended':
      throw conflict('session_ended', 'Esta sessão terminou. Toque em assistir para continuar.');
    case 'ok':
      break;
    default:
      throw new Error(`video_playback: unexpected answer ${JSON.stringify(answer)}`);
  }

  const host = videoHost();
  if (!host || answer.host !== Deno.env.get('VIDEO_HOST')?.trim()) {
    throw conflict('no_video_host', 'O vídeo desta aula não está disponível no momento.');
  }
  const playbackUrl = await host.playbackUrl({
    hostVideoId: answer.host_video_id,
    expiresInSeconds: PLAYBACK_URL_SECONDS,
    viewerIp: BIND_VIEWER_IP ? viewerIp : undefined,
  });
  return json({
    sessionId: answer.session_id,
    playbackUrl,
    expiresAt: new Date(Date.now() + PLAYBACK_URL_SECONDS * 1000).toISOString(),
    renewAfterSeconds: HEARTBEAT_SECONDS,
  });
});

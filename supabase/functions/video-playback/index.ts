// video-playback (issue 39): the playback URL of a lesson's hosted video, and the session that holds
// one of the account's screens ("Telas simultâneas"). The player starts a session, renews it with a
// heartbeat every renewAfterSeconds (each answer carries a new URL), and ends it when it stops.
//
// The database decides in one call as the caller (public.video_playback: access exactly as
// sign-lesson-file's can_sign_lesson_file, the screens limit, the session's heartbeat rule); the host's
// video id is read beside it with the service role, since students never read it, and the URL is signed
// only when the database said ok. The URL lives PLAYBACK_URL_SECONDS (≤ 10 min), bound to the viewer's
// address (VIDEO_URL_BIND_IP): a copied URL dies minutes after its session stops renewing.
//
// POST { lessonId, action: 'start' | 'takeover' | 'heartbeat' | 'end', sessionId?, deviceId? }
//   deviceId: the player's own random id (kept in the browser), so one device counts once in the report
//   and starting again on it replaces its older session; without it the User-Agent stands for it.
//   start, takeover ("Assistir aqui": ends the oldest live sessions), heartbeat (sessionId) →
//     200 { sessionId, playbackUrl, expiresAt, renewAfterSeconds }
//   end (sessionId) → 200 { ended: true }
//   409 { code: 'too_many_screens', limit, error/message: 'Você já está assistindo em 2 dispositivos.' }
//   409 { code: 'session_ended', error/message }: no heartbeat for 90 s, taken over elsewhere, or ended
//   409 { code: 'video_processing', status, percent, error/message }: not ready yet (or failed)
//   429 more than 120 starts by the account in an hour
//   400 invalid input · 401 no valid session · 403 a password change is pending (the database's message)
//   404 no such video, or no access to it (not told apart)
import { createClient } from 'npm:@supabase/supabase-js@2.109.0';
import { HttpError, json, readJsonBody, serve } from '../_shared/http.ts';
import { env, serviceClient } from '../_shared/supabase.ts';
import { remoteIpOf } from '../_shared/checkout.ts';
import { videoHost } from '../_shared/video-host/index.ts';
import { browserLabel } from './browser.ts';

const ACTIONS = ['start', 'takeover', 'heartbeat', 'end'] as const;
type Action = (typeof ACTIONS)[number];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A playback URL's life: a few heartbeats may be lost without the picture stopping. */
const PLAYBACK_URL_SECONDS = 300;
const HEARTBEAT_SECONDS = 30;
/**
 * The URL is bound to the viewer's address (Bunny: the pull zone's Token IP validation, which must then
 * be on) unless VIDEO_URL_BIND_IP=false: for audiences that reach the functions and the CDN from different
 * addresses (dual-stack IPv6/IPv4, several NAT exits), whose bound URLs the CDN would refuse.
 */
const BIND_VIEWER_IP = Deno.env.get('VIDEO_URL_BIND_IP')?.trim().toLowerCase() !== 'false';

type Decision =
  | { status: 'ok'; session_id: string; limit: number }
  | { status: 'too_many_screens'; limit: number }
  | { status: 'not_ready'; video_status: string; percent: number }
  | { status: 'session_ended' | 'no_access' | 'no_video' | 'ended' | 'too_many_starts' };

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

  const asCaller = createClient(env('SUPABASE_URL'), env('SUPABASE_ANON_KEY'), {
    global: { headers: { Authorization: authorization } },
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
  const userAgent = req.headers.get('user-agent') ?? '';
  const viewerIp = remoteIpOf(req);
  const decide = asCaller.rpc('video_playback', {
    p_lesson_id: lessonId,
    p_action: action,
    p_session_id: sessionId,
    p_device: deviceId || userAgent,
    p_ip: viewerIp ?? null,
    p_browser: browserLabel(userAgent),
  });
  // Both at once (the player waits for this): the host's id is used only if the database says ok.
  const [decision, video] = await Promise.all([
    decide,
    action === 'end' ? null : serviceClient().from('lesson_videos').select('host, host_video_id').eq('lesson_id', lessonId).maybeSingle(),
  ]);
  if (decision.error) {
    if (decision.status === 401) throw new HttpError(401, 'Não autenticado');
    // 42501 from the database: 'Troque sua senha antes de continuar.' (a password change is pending).
    if (decision.status === 403) throw new HttpError(403, decision.error.message);
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
    case 'session_ended':
      throw conflict('session_ended', 'Esta sessão terminou. Toque em assistir para continuar.');
    case 'ok':
      break;
    default:
      throw new Error(`video_playback: unexpected answer ${JSON.stringify(answer)}`);
  }

  if (video?.error) throw new Error(`lesson_videos: ${video.error.message}`);
  const host = videoHost();
  if (!host || !video?.data || video.data.host !== Deno.env.get('VIDEO_HOST')?.trim()) {
    throw conflict('no_video_host', 'O vídeo desta aula não está disponível no momento.');
  }
  const playbackUrl = await host.playbackUrl({
    hostVideoId: video.data.host_video_id,
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

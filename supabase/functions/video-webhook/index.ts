// video-webhook (issue 39): the video host's calls about a video's processing (verify_jwt = false in
// config.toml: the host signs its requests, it has no Supabase JWT). The request is checked by the host's
// adapter (VideoHost.verifyWebhook: Bunny's signature, then the video's status read back from Bunny's API,
// never taken from the body); a request that fails the check changes nothing. The status lands on the
// lesson's row (public.record_lesson_video_status: late progress never undoes ready or failed).
//
// POST <the host's body> → 200 { received: true, updated } · 401 not signed by the host · 404 no host
import { HttpError, json, readJsonBodyWithBytes, serve } from '../_shared/http.ts';
import { serviceClient } from '../_shared/supabase.ts';
import { videoHost } from '../_shared/video-host/index.ts';

serve(async (req) => {
  const host = videoHost();
  if (!host) throw new HttpError(404, 'Serviço de vídeo não configurado');
  const { bytes } = await readJsonBodyWithBytes(req);
  const event = await host.verifyWebhook({ body: new TextDecoder().decode(bytes), headers: req.headers });
  if (!event) throw new HttpError(401, 'Assinatura inválida');
  const s = event.status;
  const { data, error } = await serviceClient().rpc('record_lesson_video_status', {
    p_host: Deno.env.get('VIDEO_HOST')!.trim(),
    p_host_video_id: event.hostVideoId,
    p_state: s.state,
    p_percent: s.state === 'processing' ? Math.round(s.percent) : null,
    p_renditions: s.state === 'ready' ? s.renditions : null,
    p_duration_sec: s.state === 'ready' && s.durationSeconds !== null ? Math.round(s.durationSeconds) : null,
    p_reason: s.state === 'failed' ? s.reason : null,
  });
  if (error) throw new Error(`record_lesson_video_status: ${error.message}`);
  return json({ received: true, updated: data === true });
});

// video-upload (issue 39): staff of a lesson's school ask to upload its video to the video host. The
// function creates the video at the host, in the school's collection, and answers where the browser sends
// the file (TUS) with a signature for that one video: the host's keys never reach the browser. The video
// becomes the lesson's latest upload at once (lesson_videos: waiting; lesson_contents.video_url =
// 'video-host'); students keep playing the video it replaces until this one is ready, and only then is the
// old one queued for deletion at the host (delete-host-videos), so a cancelled or failed upload loses
// nothing. The host's webhook (video-webhook) moves it to processing, ready or failed; staff read
// lesson_videos for the progress.
//
// POST { check: true } → 200 { videoHost: true } or 409 no_video_host, for staff, with no side effect: the
//   lesson editor's video field says where a file will go (and what that means) before one is chosen.
//   401 no valid session · 403 not staff, or a password change is pending
// POST { lessonId } →
//   200 { lessonId, status: 'waiting', upload: { endpoint, headers, expiresAt, metadata: { title } } }
//   400 invalid input · 401 no valid session · 403 a password change is pending · 404 no such lesson, or
//   not staff of its school
//   409 { code: 'no_video_host' }: the platform has no video host; uploads go to Storage as before
//   502 the host did not answer
import { createClient } from 'npm:@supabase/supabase-js@2.109.0';
import { HttpError, json, readJsonBody, serve } from '../_shared/http.ts';
import { env, requireStaff, serviceClient } from '../_shared/supabase.ts';
import { videoHost } from '../_shared/video-host/index.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The TUS signature's life: a 500 MB file on a slow line, resumed the next morning. */
const UPLOAD_SECONDS = 24 * 3600;

const NO_VIDEO_HOST =
  'Os vídeos desta escola são guardados no Storage e podem ser baixados pelos alunos. Para protegê-los (streaming com token e sem download), o administrador da plataforma precisa configurar o serviço de vídeo (Bunny Stream).';

serve(async (req) => {
  const authorization = req.headers.get('authorization') ?? '';
  if (!/^Bearer\s+\S/i.test(authorization)) throw new HttpError(401, 'Não autenticado');
  const body = await readJsonBody(req, 4096);
  if (body.check === true) {
    await requireStaff(req, serviceClient());
    if (!videoHost()) throw new HttpError(409, NO_VIDEO_HOST, { code: 'no_video_host' });
    return json({ videoHost: true });
  }
  const lessonId = body.lessonId;
  if (typeof lessonId !== 'string' || !UUID.test(lessonId)) throw new HttpError(400, 'Aula inválida', { field: 'lessonId' });

  const asCaller = createClient(env('SUPABASE_URL'), env('SUPABASE_ANON_KEY'), {
    global: { headers: { Authorization: authorization } },
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
  const target = await asCaller.rpc('lesson_video_upload_target', { p_lesson_id: lessonId });
  if (target.error) {
    if (target.status === 401) throw new HttpError(401, 'Não autenticado');
    // 42501 from the database: 'Troque sua senha antes de continuar.' (a password change is pending).
    if (target.status === 403) throw new HttpError(403, target.error.message);
    throw new Error(`lesson_video_upload_target: ${target.error.message}`);
  }
  const lesson = (target.data as { school_id: string; title: string }[] | null)?.[0];
  if (!lesson) throw new HttpError(404, 'Aula não encontrada');

  const host = videoHost();
  if (!host) throw new HttpError(409, NO_VIDEO_HOST, { code: 'no_video_host' });
  let upload;
  try {
    upload = await host.createUpload({ schoolId: lesson.school_id, title: lesson.title, expiresInSeconds: UPLOAD_SECONDS });
  } catch (e) {
    console.error('createUpload:', e instanceof Error ? e.message : String(e));
    throw new HttpError(502, 'O serviço de vídeo não respondeu. Tente novamente em instantes.');
  }
  const recorded = await serviceClient().rpc('record_lesson_video_upload', {
    p_lesson_id: lessonId,
    p_host: Deno.env.get('VIDEO_HOST')!.trim(),
    p_host_video_id: upload.hostVideoId,
  });
  if (recorded.error) {
    // Nothing points at the new video: it goes now rather than stay at the host.
    await host.delete(upload.hostVideoId).catch(() => {});
    if (recorded.error.code === '23503') throw new HttpError(404, 'Aula não encontrada');
    throw new Error(`record_lesson_video_upload: ${recorded.error.message}`);
  }
  return json({
    lessonId,
    status: 'waiting',
    upload: { endpoint: upload.endpoint, headers: upload.headers, expiresAt: upload.expiresAt, metadata: { title: lesson.title } },
  });
});

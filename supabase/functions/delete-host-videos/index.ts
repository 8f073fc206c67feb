// delete-host-videos (issue 39): deletes the lesson videos no lesson holds any more (replaced, removed, or
// their lesson deleted: private.video_host_deletions, queued by triggers): at the video host, and a
// lesson's old Storage upload (host 'storage', '<bucket>/<name>') through the Storage API. The scheduler
// calls it every minute while one is due (pg_cron + pg_net, as send-emails), with the service role; nobody
// else can. Each call claims a batch (leased: two calls at once never take the same video) and reports
// each: done, or its error (retried 2^attempts minutes later, at most a day apart). One failure never stops
// the others; a host video whose host is not configured fails that way and waits.
//   POST { limit?: 1..100 } → { claimed, deleted, failed }
import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.109.0';
import { HttpError, json, readJsonBody, safeEqual, serve } from '../_shared/http.ts';
import { env, serviceClient } from '../_shared/supabase.ts';
import { videoHost } from '../_shared/video-host/index.ts';

interface Deletion {
  id: string;
  host: string;
  host_video_id: string;
  attempts: number;
}

/** A Storage object queued as '<bucket>/<name>' (a lesson's old uploaded video). */
const STORAGE = 'storage';

async function deleteStored(admin: SupabaseClient, object: string): Promise<void> {
  const slash = object.indexOf('/');
  const { error } = await admin.storage.from(object.slice(0, slash)).remove([object.slice(slash + 1)]);
  if (error) throw new Error(error.message);
}

serve(async (req) => {
  const token = (req.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, '');
  if (!token || !safeEqual(token, env('SUPABASE_SERVICE_ROLE_KEY'))) throw new HttpError(401, 'Não autorizado');
  const body = await readJsonBody(req);
  const limit = body.limit ?? 20;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new HttpError(400, 'limit deve ser um número inteiro de 1 a 100', { field: 'limit' });
  }
  const host = videoHost();
  const hostName = Deno.env.get('VIDEO_HOST')?.trim();

  const admin = serviceClient();
  const { data, error } = await admin.rpc('claim_video_host_deletions', { p_limit: limit });
  if (error) throw new Error(`claim_video_host_deletions: ${error.message}`);
  const rows = (data ?? []) as Deletion[];
  const counts = { claimed: rows.length, deleted: 0, failed: 0 };
  for (const row of rows) {
    let failure: string | null = null;
    try {
      if (row.host === STORAGE) await deleteStored(admin, row.host_video_id);
      else if (!host || row.host !== hostName) throw new Error(`o serviço de vídeo ${row.host} não está configurado`);
      else await host.delete(row.host_video_id);
    } catch (e) {
      failure = e instanceof Error ? e.message : String(e);
    }
    const done = await admin.rpc('finish_video_host_deletion', { p_id: row.id, p_error: failure });
    if (done.error) throw new Error(`finish_video_host_deletion: ${done.error.message}`);
    if (failure) counts.failed++;
    else counts.deleted++;
  }
  return json(counts);
});

// sign-lesson-file: a signed URL of a lesson video or material file, with a capped lifetime.
//
// Storage signs a URL for any lifetime asked by whoever may read the object, so a student could keep
// a year-long link to a paid video after a refund. Students therefore have no direct read of
// lesson-videos / lesson-materials objects (migration 20261124000500); they come here. The caller's
// access is asked of the database as the caller (public.can_sign_lesson_file: lesson access with
// drip release, or course access for a course-wide file), and the URL is signed with the service role
// for at most LESSON_VIDEO_URL_MAX_SECONDS (default 4 h) or LESSON_MATERIAL_URL_MAX_SECONDS (1 h).
//
// A PDF material (by its stored content type or its bytes, not its name) is signed only for a caller
// Storage lets read it directly (staff of the school, the super admin): a student gets it from
// download-material, stamped with their name (issue 39), and is answered 403 { download } here.
//
// POST { bucket: 'lesson-videos' | 'lesson-materials', path, expiresIn? } →
//   200 { signedUrl: '/storage/v1/object/sign/…?token=…', expiresIn } (relative to the project URL,
//       which the client knows: the function's own SUPABASE_URL may be an internal address)
//   400 invalid input · 401 no valid session · 404 no such file, or no access to it (not told apart)
//   403 { download: 'download-material' } a PDF material asked by a student
import { createClient } from 'npm:@supabase/supabase-js@2.109.0';
import { HttpError, json, readJsonBody, serve } from '../_shared/http.ts';
import { env } from '../_shared/supabase.ts';
import { storagePath } from '../_shared/validate.ts';
import { callerReadsDirectly, isPdf, MATERIALS_BUCKET, readStoredHead } from '../_shared/lesson-materials.ts';

const CAPS: Record<string, { secret: string; fallback: number }> = {
  'lesson-videos': { secret: 'LESSON_VIDEO_URL_MAX_SECONDS', fallback: 4 * 3600 },
  'lesson-materials': { secret: 'LESSON_MATERIAL_URL_MAX_SECONDS', fallback: 3600 },
};

function capOf(bucket: string): number {
  const { secret, fallback } = CAPS[bucket]!;
  const configured = Number(Deno.env.get(secret));
  return Number.isInteger(configured) && configured > 0 ? configured : fallback;
}

serve(async (req) => {
  const authorization = req.headers.get('authorization') ?? '';
  if (!/^Bearer\s+\S/i.test(authorization)) throw new HttpError(401, 'Não autenticado');
  const body = await readJsonBody(req);
  const bucket = body.bucket;
  if (typeof bucket !== 'string' || !(bucket in CAPS)) throw new HttpError(400, 'Bucket inválido', { field: 'bucket' });
  // No '.', '..' or empty segment: the URL below would resolve it, and sign another course's (or
  // bucket's) object than the one whose folders can_sign_lesson_file reads.
  const path = storagePath(body);
  const cap = capOf(bucket);
  const requested = body.expiresIn ?? cap;
  if (typeof requested !== 'number' || !Number.isInteger(requested) || requested < 1) {
    throw new HttpError(400, 'expiresIn deve ser um número inteiro de segundos', { field: 'expiresIn' });
  }
  const expiresIn = Math.min(requested, cap);

  const url = env('SUPABASE_URL');
  const serviceKey = env('SUPABASE_SERVICE_ROLE_KEY');
  const asCaller = createClient(url, env('SUPABASE_ANON_KEY'), {
    global: { headers: { Authorization: authorization } },
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
  const objectPath = path.split('/').map(encodeURIComponent).join('/');
  // Both at once (the lesson page waits for this): the URL is handed out only if the check says yes.
  const [access, signing] = await Promise.all([
    asCaller.rpc('can_sign_lesson_file', { p_bucket: bucket, p_name: path }),
    fetch(`${url}/storage/v1/object/sign/${bucket}/${objectPath}`, {
      method: 'POST',
      headers: { apikey: serviceKey, Authorization: `Bearer ${serviceKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ expiresIn }),
    }),
  ]);
  const signed = signing.ok ? ((await signing.json()) as { signedURL?: unknown }) : null;
  if (!signing.ok) await signing.body?.cancel();
  if (access.error) {
    if (access.status === 401 || access.status === 403) throw new HttpError(401, 'Não autenticado');
    throw new Error(`can_sign_lesson_file: ${access.error.message}`);
  }
  if (access.data !== true || typeof signed?.signedURL !== 'string') throw new HttpError(404, 'Arquivo não encontrado');
  if (bucket === MATERIALS_BUCKET) {
    const [stored, staff] = await Promise.all([readStoredHead(path), callerReadsDirectly(authorization, path)]);
    if (!stored) throw new HttpError(404, 'Arquivo não encontrado');
    if (!staff && isPdf(stored)) {
      throw new HttpError(403, 'Este PDF é baixado com o seu nome: use o botão do material.', { download: 'download-material' });
    }
  }
  // Encoded as supabase-js encodes the URLs it returns from createSignedUrl.
  return json({ signedUrl: encodeURI(`/storage/v1${signed.signedURL}`), expiresIn });
});

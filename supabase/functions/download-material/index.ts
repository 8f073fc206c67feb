// download-material: a lesson's PDF material, stamped on every page with "Licenciado para <nome> ·
// <e-mail> · <data>" for the caller who downloads it (issue 39). A student never receives the
// unstamped file: sign-lesson-file refuses to sign a PDF of lesson-materials for anyone but staff, and
// students have no direct read of the bucket (migration 20261124000500).
//
// Access is asked of the database as the caller, exactly as sign-lesson-file asks it
// (public.can_sign_lesson_file: lesson access with drip release, or course access for a course-wide
// file; an inactive account or a pending password change sees no course). The file is read with the
// service role only after that, and only up to MATERIAL_PDF_MAX_BYTES (default 20 MB, the bucket's
// limit); more than MATERIAL_PDF_MAX_PAGES pages (default 500), MATERIAL_PDF_MAX_OBJECTS objects (default
// 50,000) or object streams inflating past MATERIAL_PDF_MAX_EXPANDED_BYTES (default 32 MB: a decompression
// bomb is refused before it is inflated) is refused too, and so is a page tree that repeats a node (a 2 KB
// file could otherwise make pdf-lib walk 2^depth pages), so one request's work stays within an edge
// function's CPU and memory (pdf-lib holds the whole document). An account stamps at most 60 PDFs an hour
// (public.note_material_stamp, asked as the caller beside the file's read).
//
// POST { path } →
//   200 the stamped PDF (application/pdf, Content-Disposition: attachment with the original file name)
//   400 invalid input · 401 no valid session · 404 no such file, or no access to it (not told apart)
//   413 too large, too many pages or objects, or inflating too far · 415 not a PDF (sign-lesson-file
//   hands those out) · 422 a PDF that cannot be read, repeats pages in its page tree or is password-protected · 429 over 60 stamps in an hour
import { createClient } from 'npm:@supabase/supabase-js@2.109.0';
import { corsHeaders, HttpError, readAtMost, readJsonBody, serve } from '../_shared/http.ts';
import { env } from '../_shared/supabase.ts';
import { storagePath } from '../_shared/validate.ts';
import { downloadName, isPdf, MATERIALS_BUCKET, readStoredHead, serviceHeaders, serviceObjectUrl } from '../_shared/lesson-materials.ts';
import { DEFAULT_MAX_EXPANDED_BYTES, DEFAULT_MAX_OBJECTS, StampError, stampPdf } from '../_shared/pdf-stamp.ts';

const MB = 1024 * 1024;

function limit(secret: string, fallback: number): number {
  const configured = Number(Deno.env.get(secret));
  return Number.isInteger(configured) && configured > 0 ? configured : fallback;
}

/** The whole object, refusing (413) past `max` bytes whatever its metadata said. */
async function readObject(path: string, max: number, tooLarge: string): Promise<Uint8Array> {
  const res = await fetch(serviceObjectUrl(path), { headers: serviceHeaders() });
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    throw new HttpError(404, 'Arquivo não encontrado');
  }
  return await readAtMost(res.body, max, tooLarge);
}

/** '20 MB', '64 KB'. */
function sizeLabel(bytes: number): string {
  return bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** RFC 6266: an ASCII fallback and the UTF-8 name. */
function attachment(name: string): string {
  const ascii = name.normalize('NFKD').replace(/[^\x20-\x7e]/g, '').replace(/["\\]/g, '') || 'material.pdf';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

serve(async (req) => {
  const authorization = req.headers.get('authorization') ?? '';
  if (!/^Bearer\s+\S/i.test(authorization)) throw new HttpError(401, 'Não autenticado');
  const body = await readJsonBody(req);
  const path = storagePath(body);
  const maxBytes = limit('MATERIAL_PDF_MAX_BYTES', 20 * MB);
  const maxPages = limit('MATERIAL_PDF_MAX_PAGES', 500);
  const maxObjects = limit('MATERIAL_PDF_MAX_OBJECTS', DEFAULT_MAX_OBJECTS);
  const maxExpandedBytes = limit('MATERIAL_PDF_MAX_EXPANDED_BYTES', DEFAULT_MAX_EXPANDED_BYTES);

  const asCaller = createClient(env('SUPABASE_URL'), env('SUPABASE_ANON_KEY'), {
    global: { headers: { Authorization: authorization } },
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
  const token = authorization.replace(/^Bearer\s+/i, '');
  const [access, who, stored] = await Promise.all([
    asCaller.rpc('can_sign_lesson_file', { p_bucket: MATERIALS_BUCKET, p_name: path }),
    asCaller.auth.getUser(token),
    readStoredHead(path),
  ]);
  if (access.error) {
    if (access.status === 401 || access.status === 403) throw new HttpError(401, 'Não autenticado');
    throw new Error(`can_sign_lesson_file: ${access.error.message}`);
  }
  const user = who.data.user;
  if (!user) throw new HttpError(401, 'Não autenticado');
  if (access.data !== true || !stored) throw new HttpError(404, 'Arquivo não encontrado');
  if (!isPdf(stored)) throw new HttpError(415, 'Este material não é um PDF', { notPdf: true });

  const tooLarge = `Este PDF é grande demais para ser baixado com o seu nome (limite de ${sizeLabel(maxBytes)}). Peça à escola uma versão menor.`;
  if (stored.size > maxBytes) throw new HttpError(413, tooLarge);

  // The account's stamp is counted beside the reads (one round trip more would wait on nothing).
  const [{ data: profile }, bytes, counted] = await Promise.all([
    asCaller.from('profiles').select('name').eq('id', user.id).maybeSingle<{ name: string | null }>(),
    readObject(path, maxBytes, tooLarge),
    asCaller.rpc('note_material_stamp'),
  ]);
  if (counted.error) {
    if (counted.status === 401 || counted.status === 403) throw new HttpError(401, 'Não autenticado');
    throw new Error(`note_material_stamp: ${counted.error.message}`);
  }
  if (counted.data !== true) throw new HttpError(429, 'Muitos downloads seguidos. Tente de novo em alguns minutos.');
  const email = user.email ?? '';
  let stamped: Uint8Array;
  try {
    stamped = await stampPdf(bytes, { name: profile?.name ?? '', email, at: new Date() }, { maxPages, maxObjects, maxExpandedBytes });
  } catch (e) {
    if (!(e instanceof StampError)) throw e;
    if (e.reason === 'too-many-pages') {
      throw new HttpError(413, `Este PDF tem páginas demais para ser baixado com o seu nome (limite de ${maxPages} páginas). Peça à escola uma versão menor.`);
    }
    if (e.reason === 'too-many-objects') {
      throw new HttpError(413, `Este PDF tem objetos demais para ser baixado com o seu nome (limite de ${maxObjects.toLocaleString('pt-BR')}). Peça à escola uma versão menor.`);
    }
    if (e.reason === 'too-expanded') {
      throw new HttpError(413, `Este PDF se expande demais para ser baixado com o seu nome (mais de ${sizeLabel(maxExpandedBytes)} descompactado). Peça à escola uma versão menor.`);
    }
    if (e.reason === 'repeated-pages') {
      throw new HttpError(422, 'A estrutura de páginas deste PDF está corrompida (a mesma página aparece repetida) e ele não pode ser baixado com o seu nome. Avise a escola.');
    }
    if (e.reason === 'encrypted') {
      throw new HttpError(422, 'Este PDF é protegido por senha e não pode ser baixado com o seu nome. Avise a escola.');
    }
    console.error('download-material: unreadable PDF:', e.message);
    throw new HttpError(422, 'Não foi possível ler este PDF para marcá-lo com o seu nome. Avise a escola.');
  }
  return new Response(stamped as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: {
      ...corsHeaders,
      'Access-Control-Expose-Headers': 'Content-Disposition',
      'Content-Type': 'application/pdf',
      'Content-Disposition': attachment(downloadName(path)),
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
});

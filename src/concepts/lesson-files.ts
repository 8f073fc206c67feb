// A lesson's private files (lesson-videos, lesson-materials) from the edge functions that check lesson
// access with drip release: sign-lesson-file (a signed URL: the lesson player's videos and materials in
// features/lessons, the quiz player's question images in features/quizzes) and download-material (a
// PDF material, stamped with the student's name on every page: issue 39).
import type { DbClient } from '@/platform/db';

export type LessonFileBucket = 'lesson-videos' | 'lesson-materials';

type Answer<T> = { ok: true; data: T; response: Response | undefined } | { ok: false; status: number | null; body: Record<string, unknown> | null };

/** One of these functions' answers, a refusal with its status and JSON body. */
async function invoke<T>(client: DbClient, name: string, body: Record<string, unknown>): Promise<Answer<T>> {
  const { data, error, response } = await client.functions.invoke<T>(name, { body });
  if (!error) return { ok: true, data: data as T, response };
  // By name: the build's supabase-js re-exports a stand-in class (src/platform/first-visit/stand-ins/functions.ts).
  const refused = error.name === 'FunctionsHttpError' ? (error.context as Response) : null;
  const payload = refused ? ((await refused.json().catch(() => null)) as Record<string, unknown> | null) : null;
  return { ok: false, status: refused?.status ?? null, body: payload };
}

/** The function's pt-BR message for a refusal. */
const failure = (answer: { body: Record<string, unknown> | null }) =>
  new Error(typeof answer.body?.error === 'string' ? answer.body.error : 'Não foi possível carregar o arquivo');

/** The signed URL (relative to the project URL, which is the function's own URL without `/functions/v1/<name>`). */
function absoluteUrl(answer: Answer<{ signedUrl: string }>): string {
  const at = answer.ok ? (answer.response?.url.lastIndexOf('/functions/v1/') ?? -1) : -1;
  if (!answer.ok || !answer.data?.signedUrl || at < 0) throw new Error('Não foi possível carregar o arquivo');
  return answer.response!.url.slice(0, at) + answer.data.signedUrl;
}

/**
 * A signed URL of a lesson file from the edge function sign-lesson-file: students may not sign these
 * files themselves (Storage would sign any lifetime), and the function caps the lifetime (4 h for a
 * video, 1 h for a material by default).
 */
export async function signLessonFile(client: DbClient, bucket: LessonFileBucket, path: string, expiresIn: number): Promise<string> {
  const answer = await invoke<{ signedUrl: string }>(client, 'sign-lesson-file', { bucket, path, expiresIn });
  if (!answer.ok) throw failure(answer);
  return absoluteUrl(answer);
}

/** A material as the student gets it: a link to open, or a file (a stamped PDF) to save. */
export type LessonMaterialFile = { url: string } | { file: Blob; name: string };

/** The file name of Content-Disposition (RFC 6266's UTF-8 form first), else the path's last segment. */
function savedName(response: Response | undefined, path: string): string {
  const header = response?.headers.get('content-disposition') ?? '';
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(header)?.[1];
  if (utf8) {
    try {
      return decodeURIComponent(utf8);
    } catch {
      // a malformed name: the plain one below
    }
  }
  return /filename="([^"]+)"/i.exec(header)?.[1] ?? path.split('/').pop() ?? 'material.pdf';
}

async function downloadStamped(client: DbClient, path: string): Promise<Answer<Blob> & { name?: string }> {
  const answer = await invoke<Blob>(client, 'download-material', { path });
  return answer.ok ? { ...answer, name: savedName(answer.response, path) } : answer;
}

/**
 * A lesson material's file. A PDF comes from download-material with the student's name on every page
 * (sign-lesson-file refuses to sign one for a student); any other file through a signed URL as before.
 * `looksLikePdf` (the material's type) only picks which function to ask first: each function decides by
 * the stored file's type and bytes, and says when the other one hands it out.
 */
export async function getLessonMaterial(client: DbClient, path: string, { looksLikePdf }: { looksLikePdf: boolean }): Promise<LessonMaterialFile> {
  if (looksLikePdf) {
    const stamped = await downloadStamped(client, path);
    if (stamped.ok) return { file: stamped.data, name: stamped.name! };
    if (stamped.body?.notPdf !== true) throw failure(stamped);
  }
  const signed = await invoke<{ signedUrl: string }>(client, 'sign-lesson-file', { bucket: 'lesson-materials', path, expiresIn: 60 });
  if (signed.ok) return { url: absoluteUrl(signed) };
  if (looksLikePdf || signed.body?.download !== 'download-material') throw failure(signed);
  const stamped = await downloadStamped(client, path);
  if (!stamped.ok) throw failure(stamped);
  return { file: stamped.data, name: stamped.name! };
}

// Signed URLs of a lesson's private files (lesson-videos, lesson-materials) from the edge function
// sign-lesson-file, which checks lesson access with drip release: the lesson player's videos and
// materials (features/lessons) and the quiz player's question images (features/quizzes).
import type { DbClient } from '@/platform/db';

export type LessonFileBucket = 'lesson-videos' | 'lesson-materials';

/**
 * A signed URL of a lesson file from the edge function sign-lesson-file: students may not sign these
 * files themselves (Storage would sign any lifetime), and the function caps the lifetime (4 h for a
 * video, 1 h for a material by default). Its answer is relative to the project URL, which is the
 * function's own URL without `/functions/v1/<name>`.
 */
export async function signLessonFile(client: DbClient, bucket: LessonFileBucket, path: string, expiresIn: number): Promise<string> {
  const { data, error, response } = await client.functions.invoke<{ signedUrl: string }>('sign-lesson-file', { body: { bucket, path, expiresIn } });
  if (error) {
    // By name: the build's supabase-js re-exports a stand-in class (src/platform/first-visit/stand-ins/functions.ts).
    const payload = error.name === 'FunctionsHttpError' ? ((await (error.context as Response).json().catch(() => null)) as { error?: unknown } | null) : null;
    throw new Error(typeof payload?.error === 'string' ? payload.error : 'Não foi possível carregar o arquivo');
  }
  const at = response?.url.lastIndexOf('/functions/v1/') ?? -1;
  if (!data?.signedUrl || at < 0) throw new Error('Não foi possível carregar o arquivo');
  return response!.url.slice(0, at) + data.signedUrl;
}

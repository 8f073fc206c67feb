// The lesson player's own reads and writes as plain functions over a supabase-js client. One request
// brings the lesson's content and video URL, its materials and the caller's rating (the discussion is
// features/discussions, fetched alongside):
// lesson_contents and materials come back only with access to the lesson (row-level security), so
// an absent lesson_contents row means "no access".
import type { DbClient } from '@/platform/db';
import { FunctionCallError, invokeFunction } from '@/platform/functions';
import { getLessonMaterial, signLessonFile, type LessonMaterialFile } from '@/concepts/lesson-files';
import type { Tables } from '@/types/database';
import { LESSON_BUNDLE_SELECT } from './lesson-urls';

export type MaterialType = Tables<'materials'>['type'];

export type LessonMaterial = Pick<Tables<'materials'>, 'id' | 'title' | 'url' | 'file_path' | 'created_at'> & { type: MaterialType };

export type LessonContent = Pick<Tables<'lesson_contents'>, 'content' | 'video_url' | 'video_poster'>;

export interface LessonBundle {
  id: string;
  course_id: string;
  /** null: the caller may not open this lesson. */
  contents: LessonContent | null;
  materials: LessonMaterial[];
  /** The caller's rating, 0 when none. */
  myRating: number;
}

interface RawBundle {
  id: string;
  course_id: string;
  lesson_contents: LessonContent | LessonContent[] | null;
  materials: LessonMaterial[] | null;
  lesson_ratings: { rating: number }[] | null;
}

const newestFirst = (a: { created_at: string; id: string }, b: { created_at: string; id: string }) =>
  b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);

/** null when the lesson is not visible at all (other school, unpublished course, unknown id). */
export async function fetchLessonBundle(client: DbClient, { lessonId, userId }: { lessonId: string; userId: string }): Promise<LessonBundle | null> {
  const { data, error } = await client
    .from('lessons')
    .select(LESSON_BUNDLE_SELECT)
    .eq('id', lessonId)
    // Staff read everyone's ratings: keep the caller's.
    .eq('lesson_ratings.user_id', userId)
    .order('created_at', { referencedTable: 'materials', ascending: false })
    .maybeSingle();
  if (error) {
    if (error.code === '22P02') return null;
    throw error;
  }
  if (!data) return null;
  // postgrest-js cannot type this select (embeds with aliases and nested orders): the shape is RawBundle.
  const raw = data as unknown as RawBundle;
  // One-to-one embeds are an object in PostgREST; accept an array too.
  const contents = Array.isArray(raw.lesson_contents) ? (raw.lesson_contents[0] ?? null) : raw.lesson_contents;
  return {
    id: raw.id,
    course_id: raw.course_id,
    contents,
    materials: [...(raw.materials ?? [])].sort(newestFirst),
    myRating: raw.lesson_ratings?.[0]?.rating ?? 0,
  };
}

/** Signed URL of an uploaded lesson video (private bucket lesson-videos), valid for `expiresIn` seconds (at most the cap). */
export function signLessonVideo(client: DbClient, path: string, expiresIn = 15 * 60): Promise<string> {
  return signLessonFile(client, 'lesson-videos', path, expiresIn);
}

/** Signed URL of a material file (private bucket lesson-materials), short-lived: it is opened at once. */
export function signMaterial(client: DbClient, path: string, expiresIn = 60): Promise<string> {
  return signLessonFile(client, 'lesson-materials', path, expiresIn);
}

/** What the student's click on a material file gets: a PDF stamped with their name, or a signed URL. */
export function openMaterialFile(client: DbClient, material: { file_path: string; type: MaterialType }): Promise<LessonMaterialFile> {
  const looksLikePdf = material.type === 'PDF' || /\.pdf$/i.test(material.file_path);
  return getLessonMaterial(client, material.file_path, { looksLikePdf });
}

/** Sets the caller's rating of a lesson, replacing an earlier one (upsert on user_id, lesson_id). */
export async function rateLesson(client: DbClient, { userId, lessonId, rating }: { userId: string; lessonId: string; rating: number }): Promise<number> {
  const { data, error } = await client
    .from('lesson_ratings')
    .upsert({ user_id: userId, lesson_id: lessonId, rating }, { onConflict: 'user_id,lesson_id' })
    .select('rating')
    .single();
  if (error) throw error;
  return (data as { rating: number }).rating;
}

/** What video-playback grants (docs/video.md, "Playback and Telas simultâneas"). */
export interface PlaybackGrant {
  sessionId: string;
  /** The HLS master playlist, its token in the path (the player's relative URLs keep it). */
  playbackUrl: string;
  expiresAt: string;
  renewAfterSeconds: number;
}

/** video-playback's answer as the player acts on it. */
export type PlaybackAnswer =
  | { kind: 'granted'; grant: PlaybackGrant }
  /** 409 too_many_screens: the server's "Você já está assistindo em 2 dispositivos." */
  | { kind: 'too_many_screens'; message: string }
  /** 409 session_ended: taken over elsewhere, ended by staff, or silent for 90 s. */
  | { kind: 'session_ended' }
  /** 409 video_processing: not ready yet, or the host failed to encode it. */
  | { kind: 'processing'; failed: boolean }
  /** Any other refusal (no access, a password change pending, too many starts): its message. */
  | { kind: 'refused'; message: string }
  /** No answer (offline) or the server failed: worth asking again. */
  | { kind: 'unreachable' };

export type PlaybackAction = 'start' | 'takeover' | 'heartbeat';

/** Starts, takes over ("Assistir aqui") or renews a playback session of the lesson's hosted video. */
export async function requestVideoPlayback(
  { lessonId, action, sessionId, deviceId }: { lessonId: string; action: PlaybackAction; sessionId?: string | null; deviceId: string },
): Promise<PlaybackAnswer> {
  try {
    const grant = await invokeFunction<PlaybackGrant>('video-playback', { lessonId, action, deviceId, ...(sessionId ? { sessionId } : {}) });
    return { kind: 'granted', grant };
  } catch (error) {
    if (!(error instanceof FunctionCallError) || error.status === null || error.status >= 500) return { kind: 'unreachable' };
    const code = error.body?.code;
    if (error.status === 409 && code === 'too_many_screens') return { kind: 'too_many_screens', message: error.message };
    if (error.status === 409 && code === 'session_ended') return { kind: 'session_ended' };
    if (error.status === 409 && code === 'video_processing') return { kind: 'processing', failed: error.body?.status === 'failed' };
    return { kind: 'refused', message: error.status === 404 ? 'Vídeo não encontrado.' : error.message };
  }
}

/**
 * Ends a playback session (its screen is free again at once), when the player stops or the page is
 * being closed. A plain keepalive fetch, as saveLessonPositionOnUnload in features/courses says why: only
 * it outlives the page. Fire and forget.
 */
export function endVideoPlayback(
  api: { url: string; anonKey: string; accessToken: string },
  { lessonId, sessionId }: { lessonId: string; sessionId: string },
): Promise<void> {
  return fetch(`${api.url}/functions/v1/video-playback`, {
    method: 'POST',
    keepalive: true,
    headers: { apikey: api.anonKey, Authorization: `Bearer ${api.accessToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ lessonId, action: 'end', sessionId }),
  }).then(
    () => undefined,
    () => undefined,
  );
}

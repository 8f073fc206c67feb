// Reads and writes of the content editor as plain functions over a supabase-js client (the SPA passes
// src/platform/supabase.ts; tests pass their own). RLS allows them to staff of the course's school only.
import { expectRows, type DbClient } from '@/platform/db';
import { FunctionCallError, invokeFunction } from '@/platform/functions';
import type { HostedUploadTarget } from '@/platform/resumable-upload';
import type { Tables } from '@/types/database';
import type { ReleaseMode } from '@/concepts/release';

export type LessonVideoType = Tables<'lessons'>['video_type'];

export type EditorLesson = Pick<
  Tables<'lessons'>,
  'id' | 'module_id' | 'title' | 'order_index' | 'is_preview' | 'duration_sec'
> & {
  video_type: LessonVideoType;
};
export type EditorModule = Pick<
  Tables<'modules'>,
  'id' | 'course_id' | 'title' | 'description' | 'thumbnail_url' | 'order_index' | 'release_after_days' | 'release_on'
> & {
  release_mode: ReleaseMode;
  lessons: EditorLesson[];
};
export type EditorCourse = Pick<Tables<'courses'>, 'id' | 'school_id' | 'title' | 'status'>;

export interface LessonForEdit {
  lesson: EditorLesson;
  content: string;
  video_url: string | null;
}

export async function fetchCourseContent(
  client: DbClient,
  courseId: string,
): Promise<{ course: EditorCourse | null; modules: EditorModule[] }> {
  const [course, modules] = await Promise.all([
    client.from('courses').select('id, school_id, title, status').eq('id', courseId).maybeSingle(),
    client
      .from('modules')
      .select(
        'id, course_id, title, description, thumbnail_url, order_index, release_mode, release_after_days, release_on, lessons(id, module_id, title, order_index, is_preview, duration_sec, video_type)',
      )
      .eq('course_id', courseId)
      .order('order_index')
      .order('created_at')
      .order('order_index', { referencedTable: 'lessons' })
      .order('created_at', { referencedTable: 'lessons' }),
  ]);
  if (course.error) throw course.error;
  if (modules.error) throw modules.error;
  return { course: course.data as EditorCourse | null, modules: (modules.data ?? []) as EditorModule[] };
}

export async function fetchLessonForEdit(client: DbClient, lessonId: string): Promise<LessonForEdit> {
  const { data, error } = await client
    .from('lessons')
    .select(
      'id, module_id, title, order_index, is_preview, duration_sec, video_type, lesson_contents(content, video_url)',
    )
    .eq('id', lessonId)
    .single();
  if (error) throw error;
  const { lesson_contents, ...lesson } = data as EditorLesson & {
    lesson_contents:
      | { content: string | null; video_url: string | null }
      | { content: string | null; video_url: string | null }[]
      | null;
  };
  const contents = Array.isArray(lesson_contents) ? lesson_contents[0] : lesson_contents;
  return { lesson, content: contents?.content ?? '', video_url: contents?.video_url ?? null };
}

export async function reorderCourseContent(
  client: DbClient,
  courseId: string,
  modules: { id: string; lessons: string[] }[],
): Promise<void> {
  const { error } = await client.rpc('reorder_course_content', { p_course_id: courseId, p_modules: modules });
  if (error) throw error;
}

export interface ModuleValues {
  title: string;
  description: string;
  thumbnail_url: string | null;
  /** Drip release: days only with AFTER_ENROLLMENT, a date ('aaaa-mm-dd') only with ON_DATE. */
  release_mode: ReleaseMode;
  release_after_days: number | null;
  release_on: string | null;
}

export async function saveModule(
  client: DbClient,
  courseId: string,
  { id, values, orderIndex }: { id?: string; values: ModuleValues; orderIndex: number },
): Promise<void> {
  const row = {
    title: values.title.trim(),
    description: values.description.trim() || null,
    thumbnail_url: values.thumbnail_url || null,
    release_mode: values.release_mode,
    release_after_days: values.release_mode === 'AFTER_ENROLLMENT' ? values.release_after_days : null,
    release_on: values.release_mode === 'ON_DATE' ? values.release_on : null,
  };
  const { error } = id
    ? await client.from('modules').update(row).eq('id', id).select('id').single()
    : await client
        .from('modules')
        .insert({ ...row, course_id: courseId, order_index: orderIndex })
        .select('id')
        .single();
  if (error) throw error;
}

export interface LessonValues {
  title: string;
  content: string;
  is_preview: boolean;
  video_type: LessonVideoType;
  /** youtube/vimeo page URL, the stored object path of an uploaded video, or 'video-host' (lesson_videos). */
  video_url: string | null;
  duration_sec: number;
}

export interface SaveLessonInput {
  id?: string;
  courseId: string;
  moduleId: string;
  orderIndex: number;
  values: LessonValues;
}

/** Saves the lesson row and its contents; returns the lesson id (a new lesson gets one here). */
export async function saveLesson(
  client: DbClient,
  { id, courseId, moduleId, orderIndex, values }: SaveLessonInput,
): Promise<string> {
  const row = {
    title: values.title.trim(),
    is_preview: values.is_preview,
    video_type: values.video_type,
    duration_sec: values.duration_sec,
  };
  const saved = id
    ? await client.from('lessons').update(row).eq('id', id).select('id').single()
    : // course_id is taken from the module by a trigger; sent only to satisfy the row type.
      await client
        .from('lessons')
        .insert({ ...row, module_id: moduleId, course_id: courseId, order_index: orderIndex })
        .select('id')
        .single();
  if (saved.error) throw saved.error;
  const lessonId = saved.data.id;
  // Choosing "none" clears the URL (SPEC §4).
  const videoUrl = values.video_type === 'none' ? null : values.video_url;
  const contents = await client
    .from('lesson_contents')
    .update({ content: values.content || null, video_url: videoUrl })
    .eq('lesson_id', lessonId)
    .select('lesson_id')
    .single();
  if (contents.error) throw contents.error;
  return lessonId;
}

/** After an upload: the lesson plays the stored object, with its poster frame when one was made. */
export async function attachUploadedVideo(client: DbClient, lessonId: string, path: string, poster: string | null): Promise<void> {
  const c = await client
    .from('lesson_contents')
    .update({ video_url: path, video_poster: poster })
    .eq('lesson_id', lessonId)
    .select('lesson_id')
    .single();
  if (c.error) throw c.error;
  const l = await client.from('lessons').update({ video_type: 'upload' }).eq('id', lessonId).select('id').single();
  if (l.error) throw l.error;
}

/** A hosted video's poster frame, saved once its upload is done (the host's video is already the lesson's). */
export async function setLessonPoster(client: DbClient, lessonId: string, poster: string): Promise<void> {
  const { error } = await client
    .from('lesson_contents')
    .update({ video_poster: poster })
    .eq('lesson_id', lessonId)
    .select('lesson_id')
    .single();
  if (error) throw error;
}

/** The lesson's video at the video host (issue 39): its processing, as staff read it; null when none. */
export type LessonVideo = Pick<Tables<'lesson_videos'>, 'status' | 'percent' | 'renditions' | 'failure_reason'>;

export async function fetchLessonVideo(client: DbClient, lessonId: string): Promise<LessonVideo | null> {
  const { data, error } = await client
    .from('lesson_videos')
    .select('status, percent, renditions, failure_reason')
    .eq('lesson_id', lessonId)
    .maybeSingle();
  if (error) throw error;
  return data;
}

/** The processing of a course's hosted lesson videos, for the outline's badges. */
export type CourseLessonVideo = Pick<Tables<'lesson_videos'>, 'lesson_id' | 'status' | 'percent'>;

export async function fetchCourseLessonVideos(client: DbClient, courseId: string): Promise<CourseLessonVideo[]> {
  const { data, error } = await client
    .from('lesson_videos')
    .select('lesson_id, status, percent, lesson:lessons!inner(course_id)')
    .eq('lesson.course_id', courseId);
  if (error) throw error;
  return (data ?? []).map(({ lesson_id, status, percent }) => ({ lesson_id, status, percent }));
}

/** video-upload's 409 when the platform keeps lesson videos in Storage (no video host configured). */
const isNoVideoHost = (e: unknown) =>
  e instanceof FunctionCallError && e.status === 409 && e.body?.code === 'no_video_host';

/** Whether lesson videos go to the video host (true) or to Storage (false); asks without creating anything. */
export async function fetchVideoHostAvailable(): Promise<boolean> {
  try {
    await invokeFunction('video-upload', { check: true });
    return true;
  } catch (e) {
    if (isNoVideoHost(e)) return false;
    throw e;
  }
}

/**
 * A new video at the host for the lesson, and where to send its file; from now on the lesson plays it and
 * the video it replaces is deleted at the host. null when there is no video host (the file goes to Storage).
 */
export async function requestHostedUpload(lessonId: string): Promise<HostedUploadTarget | null> {
  try {
    return (await invokeFunction<{ upload: HostedUploadTarget }>('video-upload', { lessonId })).upload;
  } catch (e) {
    if (isNoVideoHost(e)) return null;
    throw e;
  }
}

export async function deleteContent(
  client: DbClient,
  { table, id }: { table: 'modules' | 'lessons'; id: string },
): Promise<void> {
  expectRows(
    await client.from(table).delete().eq('id', id).select('id'),
    'Item não encontrado ou sem permissão para excluí-lo',
  );
}

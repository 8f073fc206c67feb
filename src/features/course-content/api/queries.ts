// Reads and writes of the content editor as plain functions over a supabase-js client (the SPA passes
// src/lib/supabase.ts; tests pass their own). RLS allows them to staff of the course's school only.
import type { DbClient } from '@/lib/db';
import type { Tables } from '@/types/database';
import type { ReleaseMode } from '@/lib/release';
import type { MaterialType } from '@/lib/upload';

export type LessonVideoType = 'none' | 'youtube' | 'vimeo' | 'upload';

export type EditorLesson = Pick<Tables<'lessons'>, 'id' | 'module_id' | 'title' | 'order_index' | 'is_preview' | 'duration_sec'> & {
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

export type LessonMaterial = Pick<Tables<'materials'>, 'id' | 'title' | 'url' | 'file_path' | 'created_at'> & { type: MaterialType };

export interface LessonForEdit {
  lesson: EditorLesson;
  content: string;
  video_url: string | null;
  materials: LessonMaterial[];
}

export async function fetchCourseContent(client: DbClient, courseId: string): Promise<{ course: EditorCourse | null; modules: EditorModule[] }> {
  const [course, modules] = await Promise.all([
    client.from('courses').select('id, school_id, title, status').eq('id', courseId).maybeSingle(),
    client
      .from('modules')
      .select('id, course_id, title, description, thumbnail_url, order_index, release_mode, release_after_days, release_on, lessons(id, module_id, title, order_index, is_preview, duration_sec, video_type)')
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
    .select('id, module_id, title, order_index, is_preview, duration_sec, video_type, lesson_contents(content, video_url), materials(id, title, type, url, file_path, created_at)')
    .eq('id', lessonId)
    .order('created_at', { referencedTable: 'materials', ascending: false })
    .single();
  if (error) throw error;
  const { lesson_contents, materials, ...lesson } = data as EditorLesson & {
    lesson_contents: { content: string | null; video_url: string | null } | { content: string | null; video_url: string | null }[] | null;
    materials: LessonMaterial[];
  };
  const contents = Array.isArray(lesson_contents) ? lesson_contents[0] : lesson_contents;
  return { lesson, content: contents?.content ?? '', video_url: contents?.video_url ?? null, materials: materials ?? [] };
}

export async function reorderCourseContent(client: DbClient, courseId: string, modules: { id: string; lessons: string[] }[]): Promise<void> {
  const { error } = await client.rpc('reorder_course_content', { p_course_id: courseId, p_modules: modules });
  if (error) throw error;
}

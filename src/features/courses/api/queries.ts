// The student pages' reads and progress writes, as plain functions over a supabase-js client (the SPA
// passes the one client of src/lib/supabase.ts; scripts/bench/pages.ts passes its own, in node).
// Each page loads in one request per query below: the home page embeds modules → lessons (only the
// columns it needs: ids, order and is_preview), the student's enrollment and progress (each row with
// its lesson's title and length, for "Continuar assistindo") in the course list; the course page
// embeds the outline, the enrollment and the progress in one course row. Row-level security decides
// what comes back.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Tables } from '@/types/database';

import type { EnrollmentState } from '@/lib/enrollment';

export type { EnrollmentState, EnrollmentStatus } from '@/lib/enrollment';
// Text columns with a check constraint, narrowed to their values.
export type VideoType = 'none' | 'youtube' | 'vimeo' | 'upload';

export type ProgressRow = Pick<Tables<'progress'>, 'lesson_id' | 'completed_at' | 'last_position_sec' | 'updated_at'>;

/** The home page needs a lesson's id (progress), order and is_preview (first preview lesson) only. */
export type CatalogLesson = Pick<Tables<'lessons'>, 'id' | 'order_index' | 'is_preview'>;

/** A progress row of the home catalog, with its lesson's title and length ("Continuar assistindo"). */
export type CatalogProgressRow = ProgressRow & { lesson: Pick<Tables<'lessons'>, 'title' | 'duration_sec'> | null };

export interface CatalogModule {
  id: string;
  order_index: number;
  lessons: CatalogLesson[];
}

export interface CatalogCourse {
  id: string;
  slug: string;
  title: string;
  description: string | null;
  thumbnail_url: string | null;
  thumbnail_position: string;
  purchase_url: string | null;
  created_at: string;
  /** The course issues certificates of completion (staff switch). */
  certificate_enabled: boolean;
  modules: CatalogModule[];
  enrollments: EnrollmentState[];
  progress: CatalogProgressRow[];
}

export type OutlineLesson = Pick<Tables<'lessons'>, 'id' | 'module_id' | 'title' | 'order_index' | 'duration_sec' | 'is_preview'> & {
  video_type: VideoType;
};

/** With its drip-release rule (src/lib/release.ts dates it for the student). */
export type OutlineModule = Pick<Tables<'modules'>, 'id' | 'title' | 'description' | 'thumbnail_url' | 'order_index' | 'release_mode' | 'release_after_days' | 'release_on'> & {
  lessons: OutlineLesson[];
};

/** The course page's enrollment also brings created_at: the start of an AFTER_ENROLLMENT release. */
export type CourseEnrollment = EnrollmentState & Pick<Tables<'enrollments'>, 'created_at'>;

export interface CourseDetail {
  id: string;
  school_id: string;
  slug: string;
  title: string;
  description: string | null;
  thumbnail_url: string | null;
  thumbnail_position: string;
  banner_url: string | null;
  banner_position: string;
  purchase_url: string | null;
  price: number;
  status: string;
  certificate_enabled: boolean;
  modules: OutlineModule[];
  enrollments: CourseEnrollment[];
  progress: ProgressRow[];
}

const PROGRESS_COLUMNS = 'lesson_id, completed_at, last_position_sec, updated_at';

export const CATALOG_SELECT =
  'id, slug, title, description, thumbnail_url, thumbnail_position, purchase_url, created_at, certificate_enabled, ' +
  'modules(id, order_index, lessons(id, order_index, is_preview)), ' +
  'enrollments(status, expires_at), ' +
  `progress(${PROGRESS_COLUMNS}, lesson:lessons(title, duration_sec))`;

export const COURSE_DETAIL_SELECT =
  'id, school_id, slug, title, description, thumbnail_url, thumbnail_position, banner_url, banner_position, purchase_url, price, status, certificate_enabled, ' +
  'modules(id, title, description, thumbnail_url, order_index, release_mode, release_after_days, release_on, ' +
  'lessons(id, module_id, title, order_index, duration_sec, is_preview, video_type)), ' +
  'enrollments(status, expires_at, created_at), ' +
  `progress(${PROGRESS_COLUMNS})`;

const byOrder = <T extends { order_index: number; id: string }>(a: T, b: T) => a.order_index - b.order_index || a.id.localeCompare(b.id);

/** Modules and their lessons in order_index order (the server orders too; this keeps ties stable). */
export function sortOutline<M extends { order_index: number; id: string; lessons: L[] }, L extends { order_index: number; id: string }>(
  modules: M[] | null | undefined,
): M[] {
  return [...(modules ?? [])].sort(byOrder).map((m) => ({ ...m, lessons: [...(m.lessons ?? [])].sort(byOrder) }));
}

/** The school's published courses with everything the home page shows (one request). */
export async function fetchCatalog(client: SupabaseClient, { schoolId, userId }: { schoolId: string; userId: string }): Promise<CatalogCourse[]> {
  const { data, error } = await client
    .from('courses')
    .select(CATALOG_SELECT)
    .eq('school_id', schoolId)
    .eq('status', 'PUBLISHED')
    // Staff may read everyone's enrollments and progress: keep only the caller's.
    .eq('enrollments.user_id', userId)
    .eq('progress.user_id', userId)
    .order('created_at', { ascending: false })
    .order('id');
  if (error) throw error;
  return ((data ?? []) as unknown as CatalogCourse[]).map((c) => ({ ...c, modules: sortOutline(c.modules) }));
}

/** One course with its outline, the caller's enrollment and progress (one request); null when hidden. */
export async function fetchCourseDetail(client: SupabaseClient, { courseId, userId }: { courseId: string; userId: string }): Promise<CourseDetail | null> {
  const { data, error } = await client
    .from('courses')
    .select(COURSE_DETAIL_SELECT)
    .eq('id', courseId)
    .eq('enrollments.user_id', userId)
    .eq('progress.user_id', userId)
    .maybeSingle();
  if (error) {
    // A malformed id is "not found" for the student, not a crash.
    if (error.code === '22P02') return null;
    throw error;
  }
  if (!data) return null;
  const course = data as unknown as CourseDetail;
  return { ...course, modules: sortOutline(course.modules) };
}

// ── Progress writes ─────────────────────────────────────────────────────────────────────────
// Upsert on (user_id, lesson_id). The database keeps the first completed_at (completion is final)
// and sets course_id from the lesson.

/** Marks a lesson completed. */
export async function completeLesson(client: SupabaseClient, userId: string, lessonId: string): Promise<ProgressRow> {
  const { data, error } = await client
    .from('progress')
    .upsert({ user_id: userId, lesson_id: lessonId, completed_at: new Date().toISOString() }, { onConflict: 'user_id,lesson_id' })
    .select(PROGRESS_COLUMNS)
    .single();
  if (error) throw error;
  return data as ProgressRow;
}

/** Saves the playback position (whole seconds); completed_at is not sent, so it is left as it is. */
export async function saveLessonPosition(client: SupabaseClient, userId: string, lessonId: string, positionSec: number): Promise<ProgressRow> {
  const last_position_sec = Math.max(0, Math.floor(positionSec));
  const { data, error } = await client
    .from('progress')
    .upsert({ user_id: userId, lesson_id: lessonId, last_position_sec }, { onConflict: 'user_id,lesson_id' })
    .select(PROGRESS_COLUMNS)
    .single();
  if (error) throw error;
  return data as ProgressRow;
}

// The student pages' reads and progress writes, as plain functions over a supabase-js client (the SPA
// passes the one client of src/platform/supabase.ts; scripts/bench/pages.ts passes its own, in node).
// Each page loads in one request per query below: the home page asks the database for each course
// summed up (public.student_catalog); the course page embeds the outline, the enrollment and the
// progress in one course row. Row-level security decides what comes back.
import type { DbClient } from '@/platform/db';
import type { Database, Tables } from '@/types/database';

import type { EnrollmentState } from '@/concepts/enrollment';
import type { EnrollmentTurma } from '@/concepts/release';
import { CATALOG_AVAILABLE_PAGE, COURSE_DETAIL_SELECT, PROGRESS_COLUMNS } from './course-urls';

export type { EnrollmentState, EnrollmentStatus } from '@/concepts/enrollment';
// Text columns with a check constraint, narrowed to their values.
export type VideoType = Tables<'lessons'>['video_type'];

export type ProgressRow = Pick<Tables<'progress'>, 'lesson_id' | 'completed_at' | 'last_position_sec' | 'updated_at'>;

/** The lesson a student watched last in a course ("Continuar assistindo"), still in its outline. */
export interface LastWatched {
  lesson_id: string;
  title: string;
  duration_sec: number;
  last_position_sec: number;
  completed_at: string | null;
  updated_at: string;
}

/** A course of the home page, summed up by the database (public.student_catalog). */
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
  /** The caller's enrollment, if any. */
  enrollment: EnrollmentState | null;
  lesson_count: number;
  /** Lessons of the course the caller completed. */
  completed_count: number;
  first_preview_lesson_id: string | null;
  last_watched: LastWatched | null;
  /** The start ('aaaa-mm-dd') of the caller's turma in this course; null outside a turma. */
  turma_starts_on: string | null;
}

export interface Catalog {
  /** Every course the caller is enrolled in, then the first `availableLimit` of the others. */
  courses: CatalogCourse[];
  /** How many published courses the caller is not enrolled in (shown or not). */
  availableTotal: number;
}

export type OutlineLesson = Pick<Tables<'lessons'>, 'id' | 'module_id' | 'title' | 'order_index' | 'duration_sec' | 'is_preview'> & {
  video_type: VideoType;
};

/** With its drip-release rule (src/concepts/release.ts dates it for the student). */
export type OutlineModule = Pick<Tables<'modules'>, 'id' | 'title' | 'description' | 'thumbnail_url' | 'order_index' | 'release_mode' | 'release_after_days' | 'release_on'> & {
  lessons: OutlineLesson[];
};

/** The course page's enrollment also brings created_at (the start of an AFTER_ENROLLMENT release) and
 * the student's turma, if any (its start and calendar date the modules instead). */
export type CourseEnrollment = EnrollmentState & Pick<Tables<'enrollments'>, 'created_at'> & { turma: EnrollmentTurma | null };

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

const byOrder = <T extends { order_index: number; id: string }>(a: T, b: T) => a.order_index - b.order_index || a.id.localeCompare(b.id);

/** Modules and their lessons in order_index order (the server orders too; this keeps ties stable). */
export function sortOutline<M extends { order_index: number; id: string; lessons: L[] }, L extends { order_index: number; id: string }>(
  modules: M[] | null | undefined,
): M[] {
  return [...(modules ?? [])].sort(byOrder).map((m) => ({ ...m, lessons: [...(m.lessons ?? [])].sort(byOrder) }));
}

/**
 * The home page's courses in one request: the database sums up each course (lessons, lessons done,
 * first preview, last lesson watched) instead of sending outlines and progress rows (243 KiB for a
 * 200-course school before; the cards need a few numbers each).
 */
export async function fetchCatalog(
  client: DbClient,
  { schoolId, availableLimit = CATALOG_AVAILABLE_PAGE }: { schoolId: string; availableLimit?: number },
): Promise<Catalog> {
  const { data, error } = await client.rpc('student_catalog', { p_school_id: schoolId, p_available_limit: availableLimit });
  if (error) throw error;
  const rows = (data ?? []) as CatalogRow[];
  return {
    courses: rows.map((r) => ({
      id: r.id,
      slug: r.slug,
      title: r.title,
      description: r.description,
      thumbnail_url: r.thumbnail_url,
      thumbnail_position: r.thumbnail_position,
      purchase_url: r.purchase_url,
      created_at: r.created_at,
      certificate_enabled: r.certificate_enabled,
      enrollment: r.enrollment_status ? { status: r.enrollment_status as EnrollmentState['status'], expires_at: r.enrollment_expires_at } : null,
      lesson_count: r.lesson_count,
      completed_count: r.completed_count,
      first_preview_lesson_id: r.first_preview_lesson_id,
      last_watched: r.last_lesson_id
        ? {
            lesson_id: r.last_lesson_id,
            title: r.last_lesson_title ?? '',
            duration_sec: r.last_lesson_duration_sec ?? 0,
            last_position_sec: r.last_position_sec ?? 0,
            completed_at: r.last_completed_at,
            updated_at: r.last_updated_at ?? r.created_at,
          }
        : null,
      turma_starts_on: r.turma_starts_on,
    })),
    availableTotal: rows[0]?.available_total ?? 0,
  };
}

/** A row of public.student_catalog (the generated type makes every column nullable; these are not). */
type CatalogRow = Omit<Database['public']['Functions']['student_catalog']['Returns'][number], NonNullColumns> & {
  [K in NonNullColumns]: NonNullable<Database['public']['Functions']['student_catalog']['Returns'][number][K]>;
};
type NonNullColumns = 'id' | 'slug' | 'title' | 'thumbnail_position' | 'created_at' | 'certificate_enabled' | 'lesson_count' | 'completed_count' | 'available_total';

/** One course with its outline, the caller's enrollment and progress (one request); null when hidden. */
export async function fetchCourseDetail(client: DbClient, { courseId, userId }: { courseId: string; userId: string }): Promise<CourseDetail | null> {
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
  // postgrest-js cannot type this select (embeds with aliases and nested orders): the shape is CourseDetail.
  const course = data as unknown as CourseDetail;
  return { ...course, modules: sortOutline(course.modules) };
}

// ── Progress writes ─────────────────────────────────────────────────────────────────────────
// Upsert on (user_id, lesson_id). The database keeps the first completed_at (completion is final)
// and sets course_id from the lesson.

/** Marks a lesson completed. */
export async function completeLesson(client: DbClient, userId: string, lessonId: string): Promise<ProgressRow> {
  const { data, error } = await client
    .from('progress')
    .upsert({ user_id: userId, lesson_id: lessonId, completed_at: new Date().toISOString() }, { onConflict: 'user_id,lesson_id' })
    .select(PROGRESS_COLUMNS)
    .single();
  if (error) throw error;
  return data as ProgressRow;
}

/** Saves the playback position (whole seconds); completed_at is not sent, so it is left as it is. */
export async function saveLessonPosition(client: DbClient, userId: string, lessonId: string, positionSec: number): Promise<ProgressRow> {
  const last_position_sec = Math.max(0, Math.floor(positionSec));
  const { data, error } = await client
    .from('progress')
    .upsert({ user_id: userId, lesson_id: lessonId, last_position_sec }, { onConflict: 'user_id,lesson_id' })
    .select(PROGRESS_COLUMNS)
    .single();
  if (error) throw error;
  return data as ProgressRow;
}

/**
 * The same save as saveLessonPosition, sent while the page is being closed (pagehide). It stays a plain
 * fetch on purpose: only a `keepalive` request outlives the page, and supabase-js cannot ask for one
 * (its builders take an AbortSignal, not fetch's options), so the PostgREST upsert is written out here.
 * Fire and forget: nothing is left to show an error to.
 */
export function saveLessonPositionOnUnload(
  api: { url: string; anonKey: string; accessToken: string },
  { userId, lessonId, positionSec }: { userId: string; lessonId: string; positionSec: number },
): Promise<void> {
  return fetch(`${api.url}/rest/v1/progress?on_conflict=user_id,lesson_id`, {
    method: 'POST',
    keepalive: true,
    headers: {
      apikey: api.anonKey,
      Authorization: `Bearer ${api.accessToken}`,
      'Content-Type': 'application/json',
      Prefer: 'return=minimal,resolution=merge-duplicates',
    },
    body: JSON.stringify({ user_id: userId, lesson_id: lessonId, last_position_sec: Math.max(0, Math.floor(positionSec)) }),
  }).then(
    () => undefined,
    () => undefined,
  );
}

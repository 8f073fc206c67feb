// Progress and access rules of the student pages (SPEC §4, §6, §9), as pure functions.
import { courseProgress, lessonIdsOf, percentOf, type ProgressSummary } from '@/concepts/course-progress';
import { enrollmentAccess, type EnrollmentAccess } from '@/concepts/enrollment';
import { turmaStartAhead, turmaStartsText } from '@/concepts/release';
import type { CatalogCourse, ProgressRow } from '../api/queries';

export { courseProgress, enrollmentAccess, lessonIdsOf, percentOf, type EnrollmentAccess, type ProgressSummary };

/** Sum of several courses' progress (the home "Seu Progresso"). */
export function overallProgress(parts: readonly ProgressSummary[]): ProgressSummary {
  const completed = parts.reduce((n, p) => n + p.completed, 0);
  const total = parts.reduce((n, p) => n + p.total, 0);
  return { completed, total, percent: percentOf(completed, total) };
}

/** The first is_preview lesson in outline order (modules and lessons already sorted). */
export function firstPreviewLesson<L extends { id: string; is_preview: boolean }>(modules: readonly { lessons: readonly L[] }[]): L | null {
  for (const m of modules) {
    const l = m.lessons.find((x) => x.is_preview);
    if (l) return l;
  }
  return null;
}

export interface CourseCardModel {
  course: CatalogCourse;
  /** Has an enrollment (any status). */
  enrolled: boolean;
  access: EnrollmentAccess;
  /** May open every lesson (active enrollment, or admin). */
  hasAccess: boolean;
  progress: ProgressSummary;
  firstPreviewLessonId: string | null;
  /** External purchase URL, or the checkout route. */
  purchaseHref: string;
  purchaseExternal: boolean;
  /** 'Sua turma começa em 10/03' while the student's turma has not started (no lesson opens yet). */
  turmaStart: string | null;
}

export function toCourseCard(course: CatalogCourse, { isAdmin, now = new Date() }: { isAdmin: boolean; now?: Date }): CourseCardModel {
  const access = enrollmentAccess(course.enrollment, now);
  const hasAccess = isAdmin || access === 'active';
  return {
    course,
    enrolled: course.enrollment !== null,
    access,
    hasAccess,
    progress: { completed: course.completed_count, total: course.lesson_count, percent: percentOf(course.completed_count, course.lesson_count) },
    firstPreviewLessonId: course.first_preview_lesson_id,
    purchaseHref: course.purchase_url || `/checkout/${course.slug}`,
    purchaseExternal: !!course.purchase_url,
    turmaStart:
      !isAdmin && access === 'active' && course.turma_starts_on && turmaStartAhead({ starts_on: course.turma_starts_on }, now)
        ? turmaStartsText({ starts_on: course.turma_starts_on })
        : null,
  };
}

export interface HomeModel {
  /** Courses with an enrollment (active, paused or expired). */
  mine: CourseCardModel[];
  /** Published courses without an enrollment (the ones loaded so far). */
  available: CourseCardModel[];
  /** Progress over the courses the student can study. */
  overall: ProgressSummary;
  continueWatching: ContinueWatching | null;
  /** Nothing watched or completed in any course yet: a first visit (issue 46: the home greets, not "de volta"). */
  firstVisit: boolean;
}

export interface ContinueWatching {
  courseId: string;
  courseTitle: string;
  lessonId: string;
  lessonTitle: string;
  positionSec: number;
  durationSec: number;
}

/**
 * The lesson the student last watched in a course they can open: the newest of each course's last
 * lesson (the database picks it per course, and only a lesson still in the outline); on a tie, a
 * lesson still in progress beats a completed one.
 */
export function continueWatching(cards: readonly CourseCardModel[]): ContinueWatching | null {
  let best: CourseCardModel | null = null;
  for (const card of cards) {
    const row = card.course.last_watched;
    if (!card.hasAccess || !row) continue;
    const top = best?.course.last_watched;
    const newer = !top || row.updated_at > top.updated_at;
    const tieBreak = !!top && row.updated_at === top.updated_at && !row.completed_at && !!top.completed_at;
    if (newer || tieBreak) best = card;
  }
  const row = best?.course.last_watched;
  if (!best || !row) return null;
  return {
    courseId: best.course.id,
    courseTitle: best.course.title,
    lessonId: row.lesson_id,
    lessonTitle: row.title,
    positionSec: row.last_position_sec,
    durationSec: row.duration_sec,
  };
}

export function buildHome(courses: readonly CatalogCourse[], { isAdmin, now = new Date() }: { isAdmin: boolean; now?: Date }): HomeModel {
  const cards = courses.map((c) => toCourseCard(c, { isAdmin, now }));
  const mine = cards.filter((c) => c.enrolled);
  const available = cards.filter((c) => !c.enrolled);
  const studying = mine.filter((c) => c.hasAccess);
  return {
    mine,
    available,
    overall: overallProgress(studying.map((c) => c.progress)),
    continueWatching: continueWatching(cards),
    firstVisit: courses.every((c) => !c.last_watched && c.completed_count === 0),
  };
}

/** Where "Continuar curso" goes: the first lesson not completed yet, in outline order (or the first). */
export function nextLessonToStudy<L extends { id: string }>(
  modules: readonly { lessons: readonly L[] }[],
  progress: readonly Pick<ProgressRow, 'lesson_id' | 'completed_at'>[],
): L | null {
  const done = new Set(progress.filter((p) => p.completed_at).map((p) => p.lesson_id));
  const all = modules.flatMap((m) => m.lessons);
  return all.find((l) => !done.has(l.id)) ?? all[0] ?? null;
}

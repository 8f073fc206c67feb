// A course's progress as the student sees it (SPEC §4): completed lessons of the lessons the course has
// now. Shared by the course pages (features/courses: home, course detail) and the lesson player
// (features/lessons: the header's ring).

export interface ProgressSummary {
  completed: number;
  total: number;
  /** 0-100, rounded. */
  percent: number;
}

export function percentOf(completed: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(100, Math.round((completed / total) * 100));
}

/** Completed lessons of the course / lessons of the course. Progress of lessons no longer in the
 * course does not count; total_lessons (an admin-typed number) is not used. */
export function courseProgress(
  lessonIds: readonly string[],
  progress: readonly { lesson_id: string; completed_at: string | null }[],
): ProgressSummary {
  const ids = new Set(lessonIds);
  const done = new Set(progress.filter((p) => p.completed_at && ids.has(p.lesson_id)).map((p) => p.lesson_id));
  return { completed: done.size, total: ids.size, percent: percentOf(done.size, ids.size) };
}

export function lessonIdsOf(modules: readonly { lessons: readonly { id: string }[] }[]): string[] {
  return modules.flatMap((m) => m.lessons.map((l) => l.id));
}

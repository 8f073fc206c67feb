// The student pages as the SPA loads them, with its own query functions: one definition for the load
// benchmark (scripts/bench/load.ts) and the page budgets of `npm test` (tests/budgets), so both measure
// the same requests. A page is every request the SPA makes for it (home = 2 requests, in parallel).
import type { SupabaseClient } from '@supabase/supabase-js';
import { completeLesson, fetchCatalog, fetchCourseDetail, saveLessonPosition } from '../../src/features/courses/api/queries.ts';
import { fetchLessonBundle, rateLesson } from '../../src/features/lessons/api/queries.ts';
import { addComment, fetchLessonComments } from '../../src/features/discussions/api/queries.ts';
import { fetchBell } from '../../src/concepts/bell.ts';
import { BIG, SCHOOL } from './large-school.ts';

/** Who loads the page, which lesson of the big course, and the how-manieth round (varies the values written). */
export interface StudentVisit {
  client: SupabaseClient;
  userId: string;
  lessonId: string;
  round: number;
}

type Request = (visit: StudentVisit) => Promise<unknown>;

/** Each page's requests, in the order the SPA starts them. */
export const STUDENT_PAGES = {
  // The catalog and the bell (announcements, notifications), as the SPA's home does.
  home: [({ client }) => fetchCatalog(client, { schoolId: SCHOOL }), ({ client }) => fetchBell(client, SCHOOL)],
  course: [(visit) => fetchBigCourse(visit)],
  // From the course page the outline is cached: the lesson's bundle and its discussion.
  lesson: [({ client, userId, lessonId }) => fetchLessonBundle(client, { lessonId, userId }), ({ client, lessonId }) => fetchLessonComments(client, lessonId)],
  'save position': [({ client, userId, lessonId, round }) => saveLessonPosition(client, userId, lessonId, (round * 13) % 600)],
  'complete lesson': [({ client, userId, lessonId }) => completeLesson(client, userId, lessonId)],
  comment: [({ client, userId, lessonId, round }) => addComment(client, { userId, lessonId, comment: `Comentário de carga ${round} do aluno ${userId.slice(0, 8)}.` })],
  rate: [({ client, userId, lessonId, round }) => rateLesson(client, { userId, lessonId, rating: 1 + (round % 5) })],
} satisfies Record<string, Request[]>;

export type StudentPage = keyof typeof STUDENT_PAGES;

/** Loads a page as the SPA does: its requests in parallel. */
export function loadPage(page: StudentPage, visit: StudentVisit): Promise<unknown[]> {
  return Promise.all(STUDENT_PAGES[page].map((request: Request) => request(visit)));
}

/** The course page's one request: the big course's outline with the student's progress. */
export function fetchBigCourse({ client, userId }: Pick<StudentVisit, 'client' | 'userId'>) {
  return fetchCourseDetail(client, { courseId: BIG, userId });
}
export type CourseOutline = Awaited<ReturnType<typeof fetchBigCourse>>;

/** The lessons of the course page a student can click (the one uploaded video would also need a signed URL). */
export function clickableLessons(course: CourseOutline | undefined): string[] {
  return (course?.modules ?? []).flatMap((m) => m.lessons.filter((l) => l.video_type !== 'upload').map((l) => l.id));
}

// Reports (SPEC §2/§9): the six summary numbers and the three tabs, computed in the database
// (public.admin_report_summary / admin_report_students), 'Certificados emitidos' (issue 14) and
// 'Avaliações' (issue 23, public.admin_report_quizzes).
// Plain functions: tests and benches call them.
import { fetchEveryRow, pageRange, type DbClient, type Page } from '@/platform/db';
import type { Tables } from '@/types/database';

export interface ReportSummary {
  total_students: number;
  active_last_7_days: number;
  average_progress: number;
  courses_completed: number;
  average_rating: number | null;
  comments_last_30_days: number;
}

export type ReportTab = 'all' | 'multi' | 'inactive';

export interface ReportStudent {
  user_id: string;
  name: string;
  email: string | null;
  enrolled_courses: number;
  active_enrollments: number;
  completed_lessons: number;
  total_lessons: number;
  progress: number;
  last_access: string | null;
}

export const REPORT_PAGE_SIZE = 25;

/** `turmaId`: only that turma's students (issue 40; 20261128004101). */
export async function fetchReportSummary(client: DbClient, schoolId: string, courseId: string | null, turmaId: string | null = null): Promise<ReportSummary> {
  const { data, error } = await client.rpc('admin_report_summary', { p_school_id: schoolId, p_course_id: courseId, p_turma_id: turmaId }).single();
  if (error) throw error;
  const r = data as Record<keyof ReportSummary, number | string | null>;
  return {
    total_students: Number(r.total_students),
    active_last_7_days: Number(r.active_last_7_days),
    average_progress: Number(r.average_progress),
    courses_completed: Number(r.courses_completed),
    average_rating: r.average_rating === null ? null : Number(r.average_rating),
    comments_last_30_days: Number(r.comments_last_30_days),
  };
}

/** One page of a tab; `pageSize` null returns every row (CSV export). */
export async function fetchReportStudents(
  client: DbClient,
  schoolId: string,
  tab: ReportTab,
  courseId: string | null,
  page: number,
  pageSize: number | null = REPORT_PAGE_SIZE,
  turmaId: string | null = null,
): Promise<Page<ReportStudent>> {
  const { data, error } = await client.rpc('admin_report_students', {
    p_school_id: schoolId,
    p_tab: tab,
    p_course_id: courseId,
    p_limit: pageSize,
    p_offset: pageSize ? page * pageSize : 0,
    p_turma_id: turmaId,
  });
  if (error) throw error;
  const rows = (data ?? []) as (Record<string, unknown> & { total_count: number | string })[];
  return {
    total: rows.length ? Number(rows[0]!.total_count) : 0,
    rows: rows.map(
      (r): ReportStudent => ({
        user_id: r.user_id as string,
        name: r.name as string,
        email: (r.email as string | null) ?? null,
        enrolled_courses: Number(r.enrolled_courses),
        active_enrollments: Number(r.active_enrollments),
        completed_lessons: Number(r.completed_lessons),
        total_lessons: Number(r.total_lessons),
        progress: Number(r.progress),
        last_access: (r.last_access as string | null) ?? null,
      }),
    ),
  };
}

// 'Certificados emitidos': the school's issued certificates, newest first, optionally of one course.
// Row-level security limits the rows to the staff's school (the super admin sees any school's).

export type IssuedCertificate = Pick<Tables<'certificates'>, 'id' | 'code' | 'student_name' | 'course_title' | 'completed_at' | 'workload_hours' | 'issued_at'>;

export const CERTIFICATES_PAGE_SIZE = 25;

const CERTIFICATE_COLUMNS = 'id, code, student_name, course_title, completed_at, workload_hours, issued_at';

function certificatesOf(client: DbClient, schoolId: string, courseId: string | null) {
  const q = client.from('certificates').select(CERTIFICATE_COLUMNS, { count: 'exact' }).eq('school_id', schoolId);
  return (courseId ? q.eq('course_id', courseId) : q).order('issued_at', { ascending: false }).order('id');
}

/** One page of the school's certificates. */
export async function fetchIssuedCertificates(
  client: DbClient,
  { schoolId, courseId, page, pageSize = CERTIFICATES_PAGE_SIZE }: { schoolId: string; courseId: string | null; page: number; pageSize?: number },
): Promise<Page<IssuedCertificate>> {
  const { data, error, count } = await certificatesOf(client, schoolId, courseId).range(...pageRange(page, pageSize));
  if (error) throw error;
  return { rows: data ?? [], total: count ?? 0 };
}

/** Every certificate of the filter, for the CSV export. */
export function fetchAllIssuedCertificates(client: DbClient, { schoolId, courseId }: { schoolId: string; courseId: string | null }): Promise<IssuedCertificate[]> {
  return fetchEveryRow((from, to) => certificatesOf(client, schoolId, courseId).range(from, to));
}

// 'Avaliações' (issue 23): one row per student and quiz with a finished attempt, newest attempt first,
// computed by public.admin_report_quizzes for the staff's school (optionally one course).

export interface QuizReportRow {
  user_id: string;
  name: string;
  email: string | null;
  course_id: string;
  course_title: string;
  quiz_id: string;
  /** The quiz's lesson: what the student knows the quiz by. */
  lesson_title: string;
  /** 0–100, 2 decimals. */
  best_score: number;
  attempts: number;
  passed: boolean;
  last_attempt_at: string;
}

export const QUIZ_REPORT_PAGE_SIZE = 25;
/** The most rows admin_report_quizzes answers in one call (it caps p_limit at 500). */
const QUIZ_REPORT_MAX_PAGE = 500;

/** One page of the quiz report, with the total of the filter. */
export async function fetchQuizReport(
  client: DbClient,
  { schoolId, courseId, page, pageSize = QUIZ_REPORT_PAGE_SIZE }: { schoolId: string; courseId: string | null; page: number; pageSize?: number },
): Promise<Page<QuizReportRow>> {
  const { data, error } = await client.rpc('admin_report_quizzes', { p_school_id: schoolId, p_course_id: courseId, p_limit: pageSize, p_offset: page * pageSize });
  if (error) throw error;
  const rows = data ?? [];
  return {
    total: rows.length ? Number(rows[0]!.total_count) : 0,
    rows: rows.map(
      (r): QuizReportRow => ({
        user_id: r.user_id ?? '',
        name: r.name ?? '',
        email: r.email,
        course_id: r.course_id ?? '',
        course_title: r.course_title ?? '',
        quiz_id: r.quiz_id ?? '',
        lesson_title: r.lesson_title ?? '',
        best_score: Number(r.best_score),
        attempts: Number(r.attempts),
        passed: r.passed === true,
        last_attempt_at: r.last_attempt_at ?? '',
      }),
    ),
  };
}

/** Every row of the filter, for the CSV export: pages of the function's maximum until the total. */
export async function fetchAllQuizReport(client: DbClient, { schoolId, courseId }: { schoolId: string; courseId: string | null }): Promise<QuizReportRow[]> {
  const rows: QuizReportRow[] = [];
  for (let page = 0; ; page++) {
    const batch = await fetchQuizReport(client, { schoolId, courseId, page, pageSize: QUIZ_REPORT_MAX_PAGE });
    rows.push(...batch.rows);
    if (batch.rows.length < QUIZ_REPORT_MAX_PAGE || rows.length >= batch.total) return rows;
  }
}

// Per lesson of one course (issue 25): the completion funnel, the video retention and the ratings and
// comments, each computed by one SQL function (public.admin_chart_course_funnel /
// admin_chart_video_retention / admin_chart_lesson_engagement) for staff of the course's school.
// One row per lesson in course order (module, then lesson), `position` 1-based.

export interface FunnelRow {
  lesson_id: string;
  position: number;
  module_title: string;
  lesson_title: string;
  /** Students enrolled in the course (any status): the same for every lesson. */
  enrolled: number;
  /** Of those, with progress in the lesson. */
  started: number;
  completed: number;
}

export interface RetentionRow {
  lesson_id: string;
  position: number;
  lesson_title: string;
  duration_sec: number;
  /** Enrolled students who played the video (furthest position > 0). */
  viewers: number;
  /** Of the viewers, how many reached 25 / 50 / 75 / 90% of the video. */
  reached_25: number;
  reached_50: number;
  reached_75: number;
  reached_90: number;
}

export interface EngagementRow {
  lesson_id: string;
  position: number;
  lesson_title: string;
  /** 1 decimal; null without ratings. */
  average_rating: number | null;
  ratings: number;
  comments: number;
}

/** `turmaId`: only that turma's students (issue 40; 20261128004102). */
export async function fetchCourseFunnel(client: DbClient, courseId: string, turmaId: string | null = null): Promise<FunnelRow[]> {
  const { data, error } = await client.rpc('admin_chart_course_funnel', { p_course_id: courseId, p_turma_id: turmaId });
  if (error) throw error;
  return (data ?? []).map((r) => ({
    lesson_id: r.lesson_id ?? '',
    position: Number(r.lesson_position),
    module_title: r.module_title ?? '',
    lesson_title: r.lesson_title ?? '',
    enrolled: Number(r.enrolled),
    started: Number(r.started),
    completed: Number(r.completed),
  }));
}

export async function fetchVideoRetention(client: DbClient, courseId: string): Promise<RetentionRow[]> {
  const { data, error } = await client.rpc('admin_chart_video_retention', { p_course_id: courseId });
  if (error) throw error;
  return (data ?? []).map((r) => ({
    lesson_id: r.lesson_id ?? '',
    position: Number(r.lesson_position),
    lesson_title: r.lesson_title ?? '',
    duration_sec: Number(r.duration_sec),
    viewers: Number(r.viewers),
    reached_25: Number(r.reached_25),
    reached_50: Number(r.reached_50),
    reached_75: Number(r.reached_75),
    reached_90: Number(r.reached_90),
  }));
}

export async function fetchLessonEngagement(client: DbClient, courseId: string): Promise<EngagementRow[]> {
  const { data, error } = await client.rpc('admin_chart_lesson_engagement', { p_course_id: courseId });
  if (error) throw error;
  return (data ?? []).map((r) => ({
    lesson_id: r.lesson_id ?? '',
    position: Number(r.lesson_position),
    lesson_title: r.lesson_title ?? '',
    average_rating: r.average_rating === null ? null : Number(r.average_rating),
    ratings: Number(r.ratings),
    comments: Number(r.comments),
  }));
}

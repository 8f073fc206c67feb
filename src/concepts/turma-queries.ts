// The read of a course's turmas (public.admin_turmas), apart from its hooks (turmas.ts) so that a
// component test mocks the network here, as a feature's api/queries.ts.
import type { DbClient } from '@/platform/db';

export type TurmaStatus = 'aberta' | 'em andamento' | 'encerrada';

export const TURMA_STATUS_LABEL: Record<TurmaStatus, string> = {
  aberta: 'Aberta',
  'em andamento': 'Em andamento',
  encerrada: 'Encerrada',
};

export interface CourseTurma {
  id: string;
  course_id: string;
  name: string;
  starts_on: string;
  ends_on: string | null;
  enroll_from: string | null;
  enroll_until: string | null;
  seats: number | null;
  waitlist_enabled: boolean;
  status: TurmaStatus;
  /** Students with access (ACTIVE, unexpired). */
  students: number;
  /** Students plus `held`. */
  seats_taken: number;
  /** Seats held by charges not paid yet. */
  held: number;
  waiting: number;
}

/** Every turma of the course, by start date (a course has a handful). */
export async function fetchCourseTurmas(client: DbClient, courseId: string): Promise<CourseTurma[]> {
  const { data, error } = await client.rpc('admin_turmas', { p_course_id: courseId });
  if (error) throw error;
  return (data ?? []).map((t) => ({
    id: t.id!,
    course_id: t.course_id!,
    name: t.name!,
    starts_on: t.starts_on!,
    ends_on: t.ends_on,
    enroll_from: t.enroll_from,
    enroll_until: t.enroll_until,
    seats: t.seats,
    waitlist_enabled: !!t.waitlist_enabled,
    status: t.status as TurmaStatus,
    students: t.students ?? 0,
    seats_taken: t.seats_taken ?? 0,
    held: t.held ?? 0,
    waiting: t.waiting ?? 0,
  }));
}


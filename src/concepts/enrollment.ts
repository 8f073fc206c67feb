// Enrollments: what one allows now (SPEC §6; the student pages and the checkout) and the one way staff
// enroll a student (the Enrollments screen and the CSV import).
import type { Tables } from '@/types/database';
import type { DbClient } from '@/platform/db';

/** PENDING: the student's e-mail is not confirmed yet; the database grants nothing until it is (and
 * then makes it ACTIVE). Only the database sets it. */
export type EnrollmentStatus = Tables<'enrollments'>['status'];
export type EnrollmentState = Pick<Tables<'enrollments'>, 'expires_at'> & { status: EnrollmentStatus };
export type EnrollmentAccess = 'none' | 'active' | 'paused' | 'expired';

/** The pt-BR label of each status (SPEC §2: Ativo/Pausado; issue 19: Aguardando confirmação), as the
 * Enrollments screen and a student's 'Ver atividade' show it. */
export const ENROLLMENT_STATUS_LABEL: Record<EnrollmentStatus, string> = {
  ACTIVE: 'Ativo',
  PAUSED: 'Pausado',
  PENDING: 'Aguardando confirmação',
};

/** ACTIVE and not past expires_at is 'active'. */
export function enrollmentAccess(enrollment: EnrollmentState | null | undefined, now: Date = new Date()): EnrollmentAccess {
  if (!enrollment) return 'none';
  if (enrollment.status !== 'ACTIVE') return 'paused';
  if (enrollment.expires_at && new Date(enrollment.expires_at).getTime() <= now.getTime()) return 'expired';
  return 'active';
}

/** Enrolls a student (ACTIVE; the database keeps it PENDING while the student's e-mail is unconfirmed)
 * and returns the status it got. A second enrollment in the same course is refused by the database
 * (enrollments_user_course_key, worded by describeError). */
export async function enrollStudent(client: DbClient, v: { user_id: string; course_id: string; expires_at?: string | null; turma_id?: string | null }): Promise<EnrollmentStatus> {
  const { data, error } = await client.from('enrollments').insert({ ...v, status: 'ACTIVE' }).select('status').single();
  if (error) throw error;
  return data.status;
}

// What an enrollment allows now (SPEC §6): shared by the student pages and the checkout.
import type { Tables } from '@/types/database';

export type EnrollmentStatus = 'ACTIVE' | 'PAUSED';
export type EnrollmentState = Pick<Tables<'enrollments'>, 'expires_at'> & { status: EnrollmentStatus };
export type EnrollmentAccess = 'none' | 'active' | 'paused' | 'expired';

/** ACTIVE and not past expires_at is 'active'. */
export function enrollmentAccess(enrollment: EnrollmentState | null | undefined, now: Date = new Date()): EnrollmentAccess {
  if (!enrollment) return 'none';
  if (enrollment.status !== 'ACTIVE') return 'paused';
  if (enrollment.expires_at && new Date(enrollment.expires_at).getTime() <= now.getTime()) return 'expired';
  return 'active';
}

// Certificates (issue 14) as plain functions over a supabase-js client: issuing one (the student,
// public.issue_certificate) and checking a code (anyone, public.verify_certificate). Staff list the
// school's certificates in Reports (src/features/reports/api/queries.ts).
import type { DbClient } from '@/platform/db';
import type { Tables } from '@/types/database';

export type Certificate = Tables<'certificates'>;

/** What the public page shows: exactly what verify_certificate returns. */
export interface VerifiedCertificate {
  code: string;
  student_name: string;
  course_title: string;
  school_name: string;
  completed_at: string;
  workload_hours: number;
}

/** The caller's certificate of the course: issued now, or the one issued before (unchanged). */
export async function issueCertificate(client: DbClient, courseId: string): Promise<Certificate> {
  const { data, error } = await client.rpc('issue_certificate', { p_course_id: courseId });
  if (error) throw error;
  return data as Certificate;
}

/** The certificate with this exact code, or null. */
export async function verifyCertificate(client: DbClient, code: string): Promise<VerifiedCertificate | null> {
  const { data, error } = await client.rpc('verify_certificate', { p_code: code });
  if (error) throw error;
  const row = ((data ?? []) as VerifiedCertificate[])[0];
  return row ? { ...row, workload_hours: Number(row.workload_hours) } : null;
}

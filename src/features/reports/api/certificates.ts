// Reports → 'Certificados emitidos' (issue 14): the school's issued certificates, newest first,
// optionally of one course. Row-level security limits the rows to the staff's school (the super
// admin sees any school's).
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Tables } from '@/types/database';

export type IssuedCertificate = Pick<Tables<'certificates'>, 'id' | 'code' | 'student_name' | 'course_title' | 'completed_at' | 'workload_hours' | 'issued_at'>;

export const CERTIFICATES_PAGE_SIZE = 25;

export async function fetchIssuedCertificates(client: SupabaseClient, { schoolId, courseId, page }: { schoolId: string; courseId: string | null; page: number }) {
  let q = client
    .from('certificates')
    .select('id, code, student_name, course_title, completed_at, workload_hours, issued_at', { count: 'exact' })
    .eq('school_id', schoolId);
  if (courseId) q = q.eq('course_id', courseId);
  const from = page * CERTIFICATES_PAGE_SIZE;
  const { data, error, count } = await q
    .order('issued_at', { ascending: false })
    .order('id')
    .range(from, from + CERTIFICATES_PAGE_SIZE - 1);
  if (error) throw error;
  return { rows: (data ?? []) as IssuedCertificate[], total: count ?? 0 };
}

// Reports → 'Certificados emitidos' (issue 14): the school's issued certificates, newest first,
// optionally of one course. Row-level security limits the rows to the staff's school (the super
// admin sees any school's).
import type { DbClient } from '@/lib/db';
import type { Tables } from '@/types/database';

export type IssuedCertificate = Pick<Tables<'certificates'>, 'id' | 'code' | 'student_name' | 'course_title' | 'completed_at' | 'workload_hours' | 'issued_at'>;

export const CERTIFICATES_PAGE_SIZE = 25;

/** One page of the school's certificates; `pageSize` larger for the CSV export. */
export async function fetchIssuedCertificates(
  client: DbClient,
  { schoolId, courseId, page, pageSize = CERTIFICATES_PAGE_SIZE }: { schoolId: string; courseId: string | null; page: number; pageSize?: number },
) {
  let q = client
    .from('certificates')
    .select('id, code, student_name, course_title, completed_at, workload_hours, issued_at', { count: 'exact' })
    .eq('school_id', schoolId);
  if (courseId) q = q.eq('course_id', courseId);
  const from = page * pageSize;
  const { data, error, count } = await q
    .order('issued_at', { ascending: false })
    .order('id')
    .range(from, from + pageSize - 1);
  if (error) throw error;
  return { rows: (data ?? []) as IssuedCertificate[], total: count ?? 0 };
}

/** Every certificate of the filter, for the CSV export: pages of 1,000 (the API's max_rows) until the total. */
export async function fetchAllIssuedCertificates(client: DbClient, { schoolId, courseId }: { schoolId: string; courseId: string | null }) {
  const rows: IssuedCertificate[] = [];
  for (let page = 0; ; page++) {
    const batch = await fetchIssuedCertificates(client, { schoolId, courseId, page, pageSize: 1000 });
    rows.push(...batch.rows);
    if (batch.rows.length === 0 || rows.length >= batch.total) return rows;
  }
}

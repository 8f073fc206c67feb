// The Enrollments screen (SPEC §2): one request per page — the school's enrollments with the student's
// name and CPF, the course title and the turma (issue 40), filtered by course, turma and status, newest first, with the exact total.
import { expectRows, pageRange, type DbClient } from '@/platform/db';
import type { EnrollmentStatus } from '@/concepts/enrollment';

export type { EnrollmentStatus };

export interface AdminEnrollment {
  id: string;
  status: EnrollmentStatus;
  expires_at: string | null;
  created_at: string;
  user_id: string;
  course_id: string;
  student: { name: string; cpf: string | null; email: string | null } | null;
  course: { title: string } | null;
  turma_id: string | null;
  turma: { name: string } | null;
}

export interface EnrollmentFilters {
  courseId: string;
  status: '' | EnrollmentStatus;
  /** A turma of the chosen course ('' : any). */
  turmaId?: string;
}

export const ENROLLMENTS_PAGE_SIZE = 24;

export async function fetchEnrollments(client: DbClient, schoolId: string, filters: EnrollmentFilters, page: number, pageSize = ENROLLMENTS_PAGE_SIZE) {
  let q = client
    .from('enrollments')
    .select('id, status, expires_at, created_at, user_id, course_id, student:profiles!inner(name, cpf, email), course:courses!inner(title, school_id), turma_id, turma:turmas(name)', { count: 'exact' })
    .eq('course.school_id', schoolId);
  if (filters.courseId) q = q.eq('course_id', filters.courseId);
  if (filters.status) q = q.eq('status', filters.status);
  if (filters.turmaId) q = q.eq('turma_id', filters.turmaId);
  const { data, error, count } = await q
    .order('created_at', { ascending: false })
    .order('id')
    .range(...pageRange(page, pageSize));
  if (error) throw error;
  return { rows: (data ?? []) as AdminEnrollment[], total: count ?? 0 };
}

export interface StudentOption {
  id: string;
  name: string;
  email: string | null;
  cpf: string | null;
}

/** ACTIVE students of the school matching a name, e-mail or CPF (at most 20, for the picker). */
export async function searchActiveStudents(client: DbClient, schoolId: string, term: string): Promise<StudentOption[]> {
  const { data, error } = await client.rpc('admin_list_students', { p_school_id: schoolId, p_search: term.trim() || null, p_limit: 40, p_offset: 0 });
  if (error) throw error;
  return ((data ?? []) as (StudentOption & { is_active: boolean })[])
    .filter((s) => s.is_active)
    .slice(0, 20)
    .map(({ id, name, email, cpf }) => ({ id, name, email, cpf }));
}

export async function setEnrollmentStatus(client: DbClient, { id, status }: { id: string; status: EnrollmentStatus }): Promise<void> {
  expectRows(await client.from('enrollments').update({ status }).eq('id', id).select('id'), 'Matrícula não encontrada ou sem permissão');
}

export async function deleteEnrollment(client: DbClient, id: string): Promise<void> {
  expectRows(await client.from('enrollments').delete().eq('id', id).select('id'), 'Matrícula não encontrada ou sem permissão');
}

/** "Mover de turma" (move_enrollment_to_turma): progress, quiz attempts, comments and certificates stay;
 * null takes the student out of any turma. Refused: "Turma esgotada.", "A turma é de outro curso." */
export async function moveEnrollmentToTurma(client: DbClient, { id, turmaId }: { id: string; turmaId: string | null }): Promise<void> {
  const { error } = await client.rpc('move_enrollment_to_turma', { p_enrollment_id: id, p_turma_id: turmaId });
  if (error) throw error;
}

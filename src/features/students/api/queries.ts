// The Students screen (SPEC §2) as plain functions (tests and benches call them): the list, one RPC
// call per page (rows + total) searched on the server, so a school of thousands of students never
// downloads them all; creating a student (edge function admin-create-student) and editing one.
// Activating and resetting passwords are the account operations of src/concepts/accounts.ts.
import { expectRows, type DbClient } from '@/platform/db';
import type { EnrollmentStatus } from '@/concepts/enrollment';
import type { Tables } from '@/types/database';
import { invokeFunction } from '@/platform/functions';
import type { EditStudentValues, StudentValues } from '../schemas';

export interface StudentRow {
  id: string;
  name: string;
  email: string | null;
  cpf: string | null;
  phone: string | null;
  address: string | null;
  avatar_url: string | null;
  is_active: boolean;
  must_change_password: boolean;
  created_at: string;
}

export interface StudentsPage {
  rows: StudentRow[];
  total: number;
}

export const STUDENTS_PAGE_SIZE = 24;

export async function fetchStudents(client: DbClient, schoolId: string, search: string, page: number, pageSize = STUDENTS_PAGE_SIZE): Promise<StudentsPage> {
  const { data, error } = await client.rpc('admin_list_students', { p_school_id: schoolId, p_search: search.trim() || null, p_limit: pageSize, p_offset: page * pageSize });
  if (error) throw error;
  const rows = (data ?? []) as (StudentRow & { total_count: number | string })[];
  return { rows: rows.map(({ total_count: _t, ...r }) => r), total: rows.length ? Number(rows[0]!.total_count) : 0 };
}

export interface CreatedStudent {
  user_id: string;
  email: string;
  temporary_password: string;
  password_rule: 'cpf' | 'default';
}

export function createStudent(schoolId: string, v: StudentValues): Promise<CreatedStudent> {
  return invokeFunction<CreatedStudent>('admin-create-student', { name: v.name, email: v.email, cpf: v.cpf || null, phone: v.phone || null, address: v.address || null, school_id: schoolId });
}

export async function updateStudent(client: DbClient, { id, values }: { id: string; values: EditStudentValues }): Promise<void> {
  expectRows(
    await client.from('profiles').update({ name: values.name, cpf: values.cpf || null, phone: values.phone || null, address: values.address || null }).eq('id', id).select('id'),
    'Aluno não encontrado ou sem permissão',
  );
}

/** 'Reenviar acesso' (issue 22): queues a new "Acesso liberado" e-mail, with a new 7-day link. */
export async function resendStudentAccess(client: DbClient, userId: string): Promise<void> {
  const { error } = await client.rpc('resend_student_access', { p_user_id: userId });
  if (error) throw error;
}

/** The student card's e-mail log (issue 22): what the school sent this student, newest first. */
export type StudentEmail = Pick<Tables<'email_outbox'>, 'id' | 'kind' | 'status' | 'attempts' | 'last_error' | 'created_at' | 'sent_at'>;
export const STUDENT_EMAILS_SHOWN = 50;

export async function fetchStudentEmails(client: DbClient, userId: string): Promise<StudentEmail[]> {
  const { data, error } = await client
    .from('email_outbox')
    .select('id, kind, status, attempts, last_error, created_at, sent_at')
    .eq('user_id', userId)
    .order('created_at', { ascending: false })
    // bounded: the latest messages of one student (the log says so), not a list to page through.
    .limit(STUDENT_EMAILS_SHOWN);
  if (error) throw error;
  return data ?? [];
}

// A student's activity (issue 25): lessons completed per week (public.admin_chart_student_activity,
// every week of the last `weeks` from Monday, zeros included, oldest first) and the progress in each
// course they are enrolled in (public.admin_student_course_progress; a quiz lesson counts when passed).

export const ACTIVITY_WEEKS = 12;

export interface StudentActivityWeek {
  /** The week's Monday (yyyy-mm-dd, São Paulo). */
  start: string;
  value: number;
}

export async function fetchStudentActivity(client: DbClient, userId: string, weeks = ACTIVITY_WEEKS): Promise<StudentActivityWeek[]> {
  const { data, error } = await client.rpc('admin_chart_student_activity', { p_user_id: userId, p_weeks: weeks });
  if (error) throw error;
  return (data ?? []).map((r) => ({ start: r.week_start ?? '', value: Number(r.completed) }));
}

export interface StudentCourseProgress {
  course_id: string;
  course_title: string;
  status: EnrollmentStatus;
  completed: number;
  total: number;
  /** 0–100, rounded. */
  percent: number;
  last_activity: string | null;
}

export async function fetchStudentCourseProgress(client: DbClient, userId: string): Promise<StudentCourseProgress[]> {
  const { data, error } = await client.rpc('admin_student_course_progress', { p_user_id: userId });
  if (error) throw error;
  return (data ?? []).map((r) => ({
    course_id: r.course_id ?? '',
    course_title: r.course_title ?? '',
    status: (r.status ?? 'ACTIVE') as EnrollmentStatus,
    completed: Number(r.completed),
    total: Number(r.total),
    percent: Number(r.percent),
    last_activity: r.last_activity,
  }));
}

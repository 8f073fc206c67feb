// The Students screen's list: one RPC call per page (rows + total), searched on the server, so a school
// of thousands of students never downloads them all. A plain function (tests and benches call it).
import type { DbClient } from '@/lib/db';

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

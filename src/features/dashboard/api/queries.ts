// The admin dashboard's four counters, in one RPC (public.admin_dashboard_counts). A plain function
// over a supabase-js client, so tests and benches call it in node.
import type { DbClient } from '@/lib/db';

export interface DashboardCounts {
  courses: number;
  students: number;
  materials: number;
  active_enrollments: number;
}

export async function fetchDashboardCounts(client: DbClient, schoolId: string): Promise<DashboardCounts> {
  const { data, error } = await client.rpc('admin_dashboard_counts', { p_school_id: schoolId }).single();
  if (error) throw error;
  const row = data as Record<keyof DashboardCounts, number | string>;
  return {
    courses: Number(row.courses),
    students: Number(row.students),
    materials: Number(row.materials),
    active_enrollments: Number(row.active_enrollments),
  };
}

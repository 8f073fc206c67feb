// The admin dashboard's four counters, in one RPC (public.admin_dashboard_counts). A plain function
// over a supabase-js client, so tests and benches call it in node.
import type { DbClient } from '@/platform/db';

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

// Trends (issue 25): one SQL function per chart, computed in the database for the staff's school
// (public.admin_chart_*). Each answers the buckets of the period (zeros included, oldest first), the
// period's total and the previous period's.

/** The period picker's choices: the last 7 / 30 days (per day), 90 days (per week), 12 months (per month). */
export const CHART_PERIODS = ['7d', '30d', '90d', '12m'] as const;
export type ChartPeriod = (typeof CHART_PERIODS)[number];

export const DASHBOARD_CHARTS = ['new_students', 'new_enrollments', 'active_students', 'lessons_completed', 'revenue'] as const;
export type DashboardChart = (typeof DASHBOARD_CHARTS)[number];

export interface ChartSeries {
  unit: 'day' | 'week' | 'month';
  /** First and last day of the period (yyyy-mm-dd, São Paulo). */
  from: string;
  to: string;
  points: { start: string; value: number }[];
  /** The period's total (active students: distinct students over the whole period). */
  total: number;
  previous_total: number;
}

const CHART_FUNCTIONS = {
  new_students: 'admin_chart_new_students',
  new_enrollments: 'admin_chart_new_enrollments',
  active_students: 'admin_chart_active_students',
  lessons_completed: 'admin_chart_lessons_completed',
  revenue: 'admin_chart_revenue',
} as const satisfies Record<DashboardChart, string>;

export async function fetchDashboardChart(client: DbClient, chart: DashboardChart, schoolId: string, period: ChartPeriod): Promise<ChartSeries> {
  const { data, error } = await client.rpc(CHART_FUNCTIONS[chart], { p_school_id: schoolId, p_period: period });
  if (error) throw error;
  // The function's jsonb (typed Json by the generator): numbers may arrive as strings from numeric.
  const r = (data ?? {}) as { unit?: string; from?: string; to?: string; points?: { start: string; value: number | string }[]; total?: number | string; previous_total?: number | string };
  return {
    unit: r.unit === 'week' || r.unit === 'month' ? r.unit : 'day',
    from: r.from ?? '',
    to: r.to ?? '',
    points: (r.points ?? []).map((p) => ({ start: p.start, value: Number(p.value) })),
    total: Number(r.total ?? 0),
    previous_total: Number(r.previous_total ?? 0),
  };
}

/**
 * The Receita card's "Recuperado" (issue 41): what the sales recovered after a follow-up paid, over the
 * sessions abandoned in the chart's period (admin_recovery_totals' recovered_revenue, docs/recovery.md).
 */
export async function fetchRecoveredRevenue(client: DbClient, { schoolId, from, to }: { schoolId: string; from: string; to: string }): Promise<number> {
  const { data, error } = await client.rpc('admin_recovery_totals', { p_school_id: schoolId, p_from: from, p_to: to });
  if (error) throw error;
  return Number((data as { recovered_revenue?: unknown } | null)?.recovered_revenue ?? 0);
}

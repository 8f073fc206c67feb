// Every read and write of the Turmas screen (issue 40, docs/turmas.md "API for the screens"): turmas
// over REST (row-level security keeps them to the staff's school), a turma's calendar
// (turma_module_dates), and its students with progress (admin_turma_students, 20261128004100).
import { expectRows, pageRange, type DbClient } from '@/platform/db';
import { turmaRowFromForm, type TurmaFormValues } from '../schemas';

export async function saveTurma(client: DbClient, { id, schoolId, courseId, values }: { id?: string; schoolId: string; courseId: string; values: TurmaFormValues }): Promise<void> {
  const row = turmaRowFromForm(values);
  if (id) {
    expectRows(await client.from('turmas').update(row).eq('id', id).select('id'), 'Turma não encontrada ou sem permissão');
  } else {
    const { error } = await client.from('turmas').insert({ ...row, course_id: courseId, school_id: schoolId });
    if (error) throw error;
  }
}

export async function deleteTurma(client: DbClient, id: string): Promise<void> {
  expectRows(await client.from('turmas').delete().eq('id', id).select('id'), 'Turma não encontrada ou sem permissão');
}

export interface TurmaDetail {
  id: string;
  name: string;
  course_id: string;
  starts_on: string;
  ends_on: string | null;
  course: { title: string } | null;
}

export async function fetchTurma(client: DbClient, id: string): Promise<TurmaDetail | null> {
  const { data, error } = await client.from('turmas').select('id, name, course_id, starts_on, ends_on, course:courses(title)').eq('id', id).maybeSingle();
  if (error) throw error;
  return data;
}

export interface CalendarModule {
  id: string;
  title: string;
  /** The turma's date for the module ('aaaa-mm-dd'), '' when the course's rule applies. */
  opens_on: string;
}

/** The course's modules in order with the turma's date for each (a course has tens of modules). */
export async function fetchTurmaCalendar(client: DbClient, turmaId: string, courseId: string): Promise<CalendarModule[]> {
  const [modules, dates] = await Promise.all([
    // bounded: the modules of one course.
    client.from('modules').select('id, title').eq('course_id', courseId).order('order_index').order('id'),
    client.from('turma_module_dates').select('module_id, opens_on').eq('turma_id', turmaId),
  ]);
  if (modules.error) throw modules.error;
  if (dates.error) throw dates.error;
  const byModule = new Map((dates.data ?? []).map((d) => [d.module_id, d.opens_on]));
  return (modules.data ?? []).map((m) => ({ id: m.id, title: m.title, opens_on: byModule.get(m.id) ?? '' }));
}

/** Writes the calendar: a new date is inserted, a changed one updated (staff may update only opens_on),
 * a cleared one deleted. */
export async function saveTurmaCalendar(client: DbClient, schoolId: string, turmaId: string, before: CalendarModule[], after: Record<string, string>): Promise<void> {
  const added = before.filter((m) => !m.opens_on && after[m.id]).map((m) => ({ school_id: schoolId, turma_id: turmaId, module_id: m.id, opens_on: after[m.id]! }));
  const changed = before.filter((m) => m.opens_on && after[m.id] && after[m.id] !== m.opens_on);
  const cleared = before.filter((m) => m.opens_on && !after[m.id]).map((m) => m.id);
  if (added.length) {
    const { error } = await client.from('turma_module_dates').insert(added);
    if (error) throw error;
  }
  for (const m of changed) {
    expectRows(
      await client.from('turma_module_dates').update({ opens_on: after[m.id]! }).eq('turma_id', turmaId).eq('module_id', m.id).select('module_id'),
      'Turma não encontrada ou sem permissão',
    );
  }
  if (cleared.length) {
    const { error } = await client.from('turma_module_dates').delete().eq('turma_id', turmaId).in('module_id', cleared);
    if (error) throw error;
  }
}

export interface TurmaStudent {
  enrollment_id: string;
  user_id: string;
  name: string;
  email: string | null;
  phone: string | null;
  status: string;
  total: number;
  released: number;
  completed: number;
  behind: number;
  last_activity: string | null;
  inactive_days: number;
  at_risk: boolean;
}

export const TURMA_STUDENTS_PAGE_SIZE = 25;

/** A page of the turma's students (or of those at risk), by name, with the total. */
export async function fetchTurmaStudents(client: DbClient, turmaId: string, { search, atRiskOnly, page }: { search: string; atRiskOnly: boolean; page: number }) {
  const [from, to] = pageRange(page, TURMA_STUDENTS_PAGE_SIZE);
  const { data, error } = await client.rpc('admin_turma_students', {
    p_turma_id: turmaId,
    p_search: search.trim() || undefined,
    p_at_risk_only: atRiskOnly,
    p_limit: to - from + 1,
    p_offset: from,
  });
  if (error) throw error;
  const rows = (data ?? []).map((r) => ({
    enrollment_id: r.enrollment_id!,
    user_id: r.user_id!,
    name: r.name ?? '',
    email: r.email,
    phone: r.phone,
    status: r.status ?? '',
    total: r.total ?? 0,
    released: r.released ?? 0,
    completed: r.completed ?? 0,
    behind: r.behind ?? 0,
    last_activity: r.last_activity,
    inactive_days: r.inactive_days ?? 0,
    at_risk: !!r.at_risk,
  }));
  return { rows, total: Number(data?.[0]?.total_count ?? 0) };
}

/** Each turma of the course with its students' average progress, in whole percent (admin_turmas_progress). */
export async function fetchTurmasProgress(client: DbClient, courseId: string): Promise<Record<string, number>> {
  const { data, error } = await client.rpc('admin_turmas_progress', { p_course_id: courseId });
  if (error) throw error;
  return Object.fromEntries((data ?? []).map((r) => [r.turma_id!, r.average_progress ?? 0]));
}

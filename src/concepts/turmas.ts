// A course's turmas as staff see them (issue 40, docs/turmas.md): the Turmas screen lists them, and
// Matrículas, the CSV import, Comunicados and Relatórios pick one. public.admin_turmas gives each with
// its status (derived from the dates in the database), students, seats taken and waiting list.
// Key: ['turmas', 'course', courseId].
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchCourseTurmas, type CourseTurma } from './turma-queries';
import { rootKeys } from '@/platform/query-keys';
import { supabase } from '@/platform/supabase';

export { TURMA_STATUS_LABEL, fetchCourseTurmas, type CourseTurma, type TurmaStatus } from './turma-queries';

export const courseTurmasKey = (courseId: string) => [...rootKeys.turmas, 'course', courseId] as const;

export const courseTurmasQuery = (courseId: string) =>
  queryOptions({ queryKey: courseTurmasKey(courseId), queryFn: () => fetchCourseTurmas(supabase, courseId), enabled: !!courseId });

/** The course's turmas; nothing is asked without a course. */
export function useCourseTurmas(courseId: string) {
  return useQuery(courseTurmasQuery(courseId));
}

/** The chosen turma when it is one of the course's (an id from the URL may be stale), else ''. */
export function useChosenTurma(courseId: string, turmaParam: string): string {
  const turmas = useCourseTurmas(courseId);
  return (turmas.data ?? []).some((t) => t.id === turmaParam) ? turmaParam : '';
}

/** "10/03/2026 a 10/06/2026", or "A partir de 10/03/2026 (sem término)". Dates are São Paulo days. */
export function turmaPeriod(t: Pick<CourseTurma, 'starts_on' | 'ends_on'>): string {
  const day = (d: string) => d.split('-').reverse().join('/');
  return t.ends_on ? `${day(t.starts_on)} a ${day(t.ends_on)}` : `A partir de ${day(t.starts_on)} (sem término)`;
}

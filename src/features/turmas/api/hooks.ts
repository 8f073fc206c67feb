// TanStack Query over the Turmas screen (queries.ts). Keys, under rootKeys.turmas:
//   ['turmas', 'course', courseId]                   the course's turmas (src/concepts/turmas.ts)
//   ['turmas', 'progress', courseId]                 each turma's average progress
//   ['turmas', 'detail', turmaId]                    a turma's name, course and dates
//   ['turmas', 'calendar', turmaId]                  its module dates
//   ['turmas', 'students', turmaId, search, atRisk, page]  its students with progress
// Every write invalidates the root; a turma's writes also refresh Matrículas (its turma column).
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/platform/toast';
import { supabase } from '@/platform/supabase';
import { rootKeys } from '@/platform/query-keys';
import type { TurmaFormValues } from '../schemas';
import { deleteTurma, fetchTurma, fetchTurmaCalendar, fetchTurmasProgress, fetchTurmaStudents, saveTurma, saveTurmaCalendar, type CalendarModule } from './queries';

export const turmaKeys = {
  all: rootKeys.turmas,
  progress: (courseId: string) => [...rootKeys.turmas, 'progress', courseId] as const,
  detail: (turmaId: string) => [...rootKeys.turmas, 'detail', turmaId] as const,
  calendar: (turmaId: string) => [...rootKeys.turmas, 'calendar', turmaId] as const,
  students: (turmaId: string, search: string, atRiskOnly: boolean, page: number) =>
    [...rootKeys.turmas, 'students', turmaId, search, atRiskOnly, page] as const,
};

export function useTurma(turmaId: string) {
  return useQuery(queryOptions({ queryKey: turmaKeys.detail(turmaId), queryFn: () => fetchTurma(supabase, turmaId) }));
}

export function useTurmasProgress(courseId: string) {
  return useQuery({ queryKey: turmaKeys.progress(courseId), queryFn: () => fetchTurmasProgress(supabase, courseId), enabled: !!courseId });
}

export function useTurmaCalendar(turmaId: string, courseId: string) {
  return useQuery({ queryKey: turmaKeys.calendar(turmaId), queryFn: () => fetchTurmaCalendar(supabase, turmaId, courseId) });
}

export function useTurmaStudents(turmaId: string, search: string, atRiskOnly: boolean, page: number) {
  return useQuery({
    queryKey: turmaKeys.students(turmaId, search, atRiskOnly, page),
    queryFn: () => fetchTurmaStudents(supabase, turmaId, { search, atRiskOnly, page }),
    placeholderData: keepPreviousData,
  });
}

function useInvalidateTurmas() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: turmaKeys.all });
    void queryClient.invalidateQueries({ queryKey: rootKeys.enrollments });
  };
}

export function useSaveTurma() {
  const invalidate = useInvalidateTurmas();
  return useMutation({
    mutationFn: (input: { id?: string; schoolId: string; courseId: string; values: TurmaFormValues }) => saveTurma(supabase, input),
    meta: { errorTitle: 'Erro ao salvar turma' },
    onSuccess: (_d, { id }) => {
      toast.success(id ? 'Turma atualizada!' : 'Turma criada!');
      invalidate();
    },
  });
}

export function useDeleteTurma() {
  const invalidate = useInvalidateTurmas();
  return useMutation({
    mutationFn: (id: string) => deleteTurma(supabase, id),
    meta: { errorTitle: 'Erro ao excluir' },
    onSuccess: () => {
      toast.success('Turma excluída!');
      invalidate();
    },
  });
}

export function useSaveTurmaCalendar() {
  const invalidate = useInvalidateTurmas();
  return useMutation({
    mutationFn: (input: { schoolId: string; turmaId: string; before: CalendarModule[]; after: Record<string, string> }) =>
      saveTurmaCalendar(supabase, input.schoolId, input.turmaId, input.before, input.after),
    meta: { errorTitle: 'Erro ao salvar calendário' },
    onSuccess: () => {
      toast.success('Calendário salvo!');
      invalidate();
    },
  });
}

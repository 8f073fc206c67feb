// TanStack Query over the Enrollments screen (queries.ts). Keys: ['enrollments', 'admin', …filters, page],
// ['enrollments', 'student-options', schoolId, term]. Every write also refreshes courses and the dashboard.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/platform/toast';
import { supabase } from '@/platform/supabase';
import { rootKeys } from '@/platform/query-keys';
import { enrollStudent } from '@/concepts/enrollment';
import { deleteEnrollment, fetchEnrollments, moveEnrollmentToTurma, searchActiveStudents, setEnrollmentStatus, type EnrollmentFilters, type EnrollmentStatus } from './queries';

export const enrollmentKeys = {
  all: rootKeys.enrollments,
  page: (schoolId: string, f: EnrollmentFilters, page: number) => [...rootKeys.enrollments, 'admin', schoolId, f.courseId, f.status, f.turmaId ?? '', page] as const,
  students: (schoolId: string, term: string) => [...rootKeys.enrollments, 'student-options', schoolId, term] as const,
};

export function useEnrollments(schoolId: string, filters: EnrollmentFilters, page: number) {
  return useQuery({ queryKey: enrollmentKeys.page(schoolId, filters, page), queryFn: () => fetchEnrollments(supabase, schoolId, filters, page), placeholderData: keepPreviousData });
}

export function useStudentOptions(schoolId: string, term: string, enabled: boolean) {
  return useQuery({ queryKey: enrollmentKeys.students(schoolId, term), queryFn: () => searchActiveStudents(supabase, schoolId, term), enabled, placeholderData: keepPreviousData });
}

export const PENDING_DESCRIPTION = 'O acesso será liberado quando o aluno confirmar o e-mail pelo link que recebeu.';

function invalidateAll(queryClient: ReturnType<typeof useQueryClient>) {
  void queryClient.invalidateQueries({ queryKey: enrollmentKeys.all });
  void queryClient.invalidateQueries({ queryKey: rootKeys.courses });
  void queryClient.invalidateQueries({ queryKey: rootKeys.dashboard });
  void queryClient.invalidateQueries({ queryKey: rootKeys.turmas });
}

export function useCreateEnrollment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { user_id: string; course_id: string; expires_at: string | null; turma_id: string | null }) => enrollStudent(supabase, v),
    onSuccess: (status) => {
      invalidateAll(queryClient);
      // The database keeps it PENDING while the student's e-mail is unconfirmed: say so.
      if (status === 'PENDING') toast.success('Matrícula aguardando confirmação do e-mail', { description: PENDING_DESCRIPTION });
      else toast.success('Aluno matriculado!');
    },
    meta: { errorTitle: 'Erro ao matricular aluno' },
  });
}

export function useSetEnrollmentStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; status: EnrollmentStatus }) => setEnrollmentStatus(supabase, input),
    onSuccess: (_d, { status }) => {
      invalidateAll(queryClient);
      toast.success(status === 'ACTIVE' ? 'Matrícula ativada!' : 'Matrícula pausada!');
    },
    meta: { errorTitle: 'Erro ao atualizar matrícula' },
  });
}

export function useDeleteEnrollment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteEnrollment(supabase, id),
    onSuccess: () => {
      invalidateAll(queryClient);
      toast.success('Matrícula excluída!');
    },
    meta: { errorTitle: 'Erro ao excluir' },
  });
}

export function useMoveEnrollmentToTurma() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; turmaId: string | null }) => moveEnrollmentToTurma(supabase, input),
    onSuccess: (_d, { turmaId }) => {
      invalidateAll(queryClient);
      toast.success(turmaId ? 'Aluno movido de turma!' : 'Aluno tirado da turma!');
    },
    meta: { errorTitle: 'Erro ao mover de turma' },
  });
}

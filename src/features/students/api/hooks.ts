// TanStack Query over the Students screen (queries.ts). Keys:
//   ['students', schoolId, search, page]   one page of Alunos
//   ['students', 'emails', userId]         the student card's e-mail log
//   ['students', 'activity', userId]       lessons completed per week (last 12 weeks)
//   ['students', 'courses', userId]        progress in each course
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/platform/toast';
import { supabase } from '@/platform/supabase';
import { rootKeys } from '@/platform/query-keys';
import { useSetAccountActive } from '@/concepts/accounts';
import type { StudentValues } from '../schemas';
import { createStudent, fetchStudentActivity, fetchStudentCourseProgress, fetchStudentEmails, fetchStudents, resendStudentAccess, updateStudent } from './queries';

export const studentKeys = {
  all: rootKeys.students,
  page: (schoolId: string, search: string, page: number) => [...rootKeys.students, schoolId, search, page] as const,
  emails: (userId: string) => [...rootKeys.students, 'emails', userId] as const,
  activity: (userId: string) => [...rootKeys.students, 'activity', userId] as const,
  courses: (userId: string) => [...rootKeys.students, 'courses', userId] as const,
};

/** SPEC §8: a failed read is only logged; the dialog shows LoadError with a retry. */
function logged<T>(read: Promise<T>): Promise<T> {
  return read.catch((error: unknown) => {
    console.error('Erro ao carregar atividade do aluno', error);
    throw error;
  });
}

/** 'Ver atividade' (issue 25): lessons the student completed in each of the last 12 weeks. */
export function useStudentActivity(userId: string) {
  return useQuery({ queryKey: studentKeys.activity(userId), queryFn: () => logged(fetchStudentActivity(supabase, userId)), retry: false });
}

/** 'Ver atividade' (issue 25): the student's progress in each course they are enrolled in. */
export function useStudentCourseProgress(userId: string) {
  return useQuery({ queryKey: studentKeys.courses(userId), queryFn: () => logged(fetchStudentCourseProgress(supabase, userId)), retry: false });
}

/** The student card's e-mail log. */
export function useStudentEmails(userId: string) {
  return useQuery({ queryKey: studentKeys.emails(userId), queryFn: () => fetchStudentEmails(supabase, userId) });
}

export function useStudents(schoolId: string, search: string, page: number) {
  return useQuery({ queryKey: studentKeys.page(schoolId, search, page), queryFn: () => fetchStudents(supabase, schoolId, search, page), placeholderData: keepPreviousData });
}

export function useCreateStudent(schoolId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: StudentValues) => createStudent(schoolId, v),
    meta: { errorTitle: 'Erro ao cadastrar aluno' },
    onSuccess: () => {
      toast.success('Aluno cadastrado!');
      return queryClient.invalidateQueries({ queryKey: studentKeys.all });
    },
  });
}

export function useUpdateStudent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Parameters<typeof updateStudent>[1]) => updateStudent(supabase, input),
    meta: { errorTitle: 'Erro ao salvar aluno' },
    onSuccess: () => {
      toast.success('Aluno atualizado!');
      return queryClient.invalidateQueries({ queryKey: studentKeys.all });
    },
  });
}

export const useToggleStudentActive = () =>
  useSetAccountActive({ listKey: studentKeys.all, activated: 'Aluno ativado!', deactivated: 'Aluno desativado! O acesso foi bloqueado.', errorTitle: 'Erro ao salvar aluno' });

/** 'Reenviar acesso': the student gets the access e-mail again, with a new link to choose a password. */
export function useResendStudentAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => resendStudentAccess(supabase, userId),
    meta: { errorTitle: 'Erro ao reenviar acesso' },
    onSuccess: (_d, userId) => {
      toast.success('Acesso reenviado! O aluno receberá um e-mail com o link para criar a senha.');
      return queryClient.invalidateQueries({ queryKey: studentKeys.emails(userId) });
    },
  });
}

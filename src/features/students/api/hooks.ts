import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/lib/toast';
import { invokeFunction } from '@/lib/functions';
import { supabase } from '@/lib/supabase';
import type { EditStudentValues, StudentValues } from '../schemas';
import { fetchStudents } from './queries';
import { rootKeys } from '@/lib/query-keys';
import { expectRows } from '@/lib/db';

export const studentKeys = {
  all: rootKeys.students,
  page: (schoolId: string, search: string, page: number) => [...rootKeys.students, schoolId, search, page] as const,
};

export function useStudents(schoolId: string, search: string, page: number) {
  return useQuery({ queryKey: studentKeys.page(schoolId, search, page), queryFn: () => fetchStudents(supabase, schoolId, search, page), placeholderData: keepPreviousData });
}

export interface CreatedStudent {
  user_id: string;
  email: string;
  temporary_password: string;
  password_rule: 'cpf' | 'default';
}

export function useCreateStudent(schoolId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: StudentValues) =>
      invokeFunction<CreatedStudent>('admin-create-student', { name: v.name, email: v.email, cpf: v.cpf || null, phone: v.phone || null, address: v.address || null, school_id: schoolId }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: studentKeys.all });
      toast.success('Aluno cadastrado!');
    },
    meta: { errorTitle: 'Erro ao cadastrar aluno' },
  });
}

export function useUpdateStudent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, values }: { id: string; values: EditStudentValues }) => {
      expectRows(await supabase
        .from('profiles')
        .update({ name: values.name, cpf: values.cpf || null, phone: values.phone || null, address: values.address || null })
        .eq('id', id)
        .select('id'), 'Aluno não encontrado ou sem permissão');
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: studentKeys.all });
      toast.success('Aluno atualizado!');
    },
    meta: { errorTitle: 'Erro ao salvar aluno' },
  });
}

export function useToggleStudentActive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, active }: { id: string; active: boolean }) => {
      expectRows(await supabase.from('profiles').update({ is_active: active }).eq('id', id).select('id'), 'Aluno não encontrado ou sem permissão');
    },
    onSuccess: (_d, { active }) => {
      void queryClient.invalidateQueries({ queryKey: studentKeys.all });
      toast.success(active ? 'Aluno ativado!' : 'Aluno desativado! O acesso foi bloqueado.');
    },
    meta: { errorTitle: 'Erro ao salvar aluno' },
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (userId: string) => invokeFunction<{ user_id: string; temporary_password: string }>('admin-reset-password', { user_id: userId }),
    meta: { errorTitle: 'Erro ao resetar senha' },
  });
}

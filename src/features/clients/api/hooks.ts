import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/lib/toast';
import { invokeFunction } from '@/lib/functions';
import { supabase } from '@/lib/supabase';
import { fetchClients, fetchSchools } from './queries';
import { rootKeys } from '@/lib/query-keys';
import { expectRows } from '@/lib/db';

export const clientKeys = {
  all: rootKeys.clients,
  list: (page: number) => [...rootKeys.clients, 'list', page] as const,
  schools: [...rootKeys.clients, 'schools'] as const,
};

/** One page of the Clientes screen. */
export const useClients = (page: number) => useQuery({ queryKey: clientKeys.list(page), queryFn: () => fetchClients(supabase, page), placeholderData: keepPreviousData });
export const useSchoolOptions = () => useQuery({ queryKey: clientKeys.schools, queryFn: () => fetchSchools(supabase) });

export function useCreateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { name: string; email: string; school_id: string }) => invokeFunction<{ user_id: string; temporary_password: string }>('admin-create-school-admin', v),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: clientKeys.all });
      toast.success('Cliente cadastrado!');
    },
    meta: { errorTitle: 'Erro ao cadastrar cliente' },
  });
}

export function useCreateSchool() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (v: { name: string; slug: string; member_area_name: string }) => {
      const { data, error } = await supabase.from('schools').insert(v).select('id, name, slug').single();
      if (error) throw error;
      return data;
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: clientKeys.all });
      toast.success('Escola criada!');
    },
    meta: { errorTitle: 'Erro ao criar escola' },
  });
}

export function useToggleClientActive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, active }: { id: string; active: boolean }) => {
      expectRows(await supabase.from('profiles').update({ is_active: active }).eq('id', id).select('id'), 'Usuário não encontrado ou sem permissão');
    },
    onSuccess: (_d, { active }) => {
      void queryClient.invalidateQueries({ queryKey: clientKeys.all });
      toast.success(active ? 'Cliente ativado!' : 'Cliente desativado!');
    },
    meta: { errorTitle: 'Erro ao atualizar' },
  });
}

export function useResetClientPassword() {
  return useMutation({
    mutationFn: (userId: string) => invokeFunction<{ user_id: string; temporary_password: string }>('admin-reset-password', { user_id: userId }),
    meta: { errorTitle: 'Erro ao resetar senha' },
  });
}

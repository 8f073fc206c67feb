// TanStack Query over the Clientes screen (queries.ts). Keys: ['clients', 'list', page], ['clients', 'schools'].
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/platform/toast';
import { supabase } from '@/platform/supabase';
import { createClient, createSchool, fetchClients, fetchSchools } from './queries';
import type { SchoolValues } from '../schemas';
import { rootKeys } from '@/platform/query-keys';
import { useSetAccountActive } from '@/concepts/accounts';

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
    mutationFn: createClient,
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
    mutationFn: (v: SchoolValues) => createSchool(supabase, v),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: clientKeys.all });
      toast.success('Escola criada!');
    },
    meta: { errorTitle: 'Erro ao criar escola' },
  });
}

export const useToggleClientActive = () =>
  useSetAccountActive({ listKey: clientKeys.all, activated: 'Cliente ativado!', deactivated: 'Cliente desativado!', errorTitle: 'Erro ao atualizar' });

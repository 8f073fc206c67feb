// TanStack Query over the settings (queries.ts). Keys, under rootKeys.settings:
//   ['settings', 'integrations', schoolId]    the school's payment integrations
//   ['settings', 'system-key']                the platform's Asaas key (its last 4 characters)
//   ['settings', 'webhook-secret', schoolId]  the school's student-webhook secret
//   ['settings', 'discussion', schoolId]      Comentários e ranking (approval, the students' ranking)
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/platform/toast';
import { supabase } from '@/platform/supabase';
import { rootKeys } from '@/platform/query-keys';
import type { IntegrationValues } from '../schemas';
import {
  createIntegration,
  deleteIntegration,
  fetchDiscussionSettings,
  fetchIntegrations,
  fetchSystemKey,
  fetchWebhookSecret,
  rotateWebhookSecret,
  saveDiscussionSetting,
  saveSystemKey,
  setIntegrationActive,
  setWebhookToken,
  type DiscussionSettings,
} from './queries';

export type { Integration } from './queries';

export const settingsKeys = {
  all: rootKeys.settings,
  integrations: (schoolId: string) => [...settingsKeys.all, 'integrations', schoolId] as const,
  systemKey: () => [...settingsKeys.all, 'system-key'] as const,
  webhookSecret: (schoolId: string) => [...settingsKeys.all, 'webhook-secret', schoolId] as const,
  discussion: (schoolId: string) => [...settingsKeys.all, 'discussion', schoolId] as const,
};

export const integrationsQuery = (schoolId: string) =>
  queryOptions({ queryKey: settingsKeys.integrations(schoolId), queryFn: () => fetchIntegrations(supabase, schoolId) });

export function useIntegrations(schoolId: string) {
  return useQuery(integrationsQuery(schoolId));
}

export function useAddIntegration(schoolId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: IntegrationValues) => createIntegration(supabase, schoolId, input),
    meta: { errorTitle: 'Erro ao adicionar integração' },
    onSuccess: () => {
      toast.success('Integração adicionada!');
      return queryClient.invalidateQueries({ queryKey: settingsKeys.integrations(schoolId) });
    },
  });
}

export function useSetIntegrationActive(schoolId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, isActive }: { id: string; isActive: boolean }) => setIntegrationActive(supabase, id, isActive),
    meta: { errorTitle: 'Erro ao atualizar' },
    onSuccess: (_d, { isActive }) => {
      toast.success(isActive ? 'Integração ativada!' : 'Integração desativada!');
      return queryClient.invalidateQueries({ queryKey: settingsKeys.integrations(schoolId) });
    },
  });
}

export function useDeleteIntegration(schoolId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (integrationId: string) => deleteIntegration(supabase, integrationId),
    meta: { errorTitle: 'Erro ao atualizar' },
    onSuccess: () => {
      toast.success('Integração excluída!');
      return queryClient.invalidateQueries({ queryKey: settingsKeys.integrations(schoolId) });
    },
  });
}

export function useSystemKey() {
  return useQuery({ queryKey: settingsKeys.systemKey(), queryFn: () => fetchSystemKey(supabase) });
}

export function useSaveSystemKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (value: string) => saveSystemKey(supabase, value),
    meta: { errorTitle: 'Erro ao salvar chave' },
    onSuccess: () => {
      toast.success('Chave salva!');
      return queryClient.invalidateQueries({ queryKey: settingsKeys.systemKey() });
    },
  });
}

export function useWebhookSecret(schoolId: string) {
  return useQuery({ queryKey: settingsKeys.webhookSecret(schoolId), queryFn: () => fetchWebhookSecret(supabase, schoolId) });
}

export function useRotateWebhookSecret(schoolId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => rotateWebhookSecret(supabase, schoolId),
    meta: { errorTitle: 'Erro ao gerar segredo' },
    onSuccess: (value) => {
      queryClient.setQueryData(settingsKeys.webhookSecret(schoolId), value);
      toast.success('Novo segredo gerado!', { description: 'Atualize o segredo no sistema que chama o webhook.' });
    },
  });
}

export function useSetWebhookToken(schoolId: string, integrationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => setWebhookToken(supabase, integrationId, token),
    meta: { errorTitle: 'Erro ao salvar token' },
    onSuccess: (_d, token) => {
      toast.success(token ? 'Token do webhook salvo!' : 'Token do webhook removido!');
      return queryClient.invalidateQueries({ queryKey: settingsKeys.integrations(schoolId) });
    },
  });
}

export function useDiscussionSettings(schoolId: string) {
  return useQuery({ queryKey: settingsKeys.discussion(schoolId), queryFn: () => fetchDiscussionSettings(supabase, schoolId) });
}

/** One switch of Comentários e ranking, saved at once; the home's ranking card follows (rootKeys.ranking). */
export function useSaveDiscussionSetting(schoolId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: Partial<DiscussionSettings>) => saveDiscussionSetting(supabase, schoolId, change),
    meta: { errorTitle: 'Erro ao salvar' },
    onSuccess: (_d, change) => {
      queryClient.setQueryData<DiscussionSettings>(settingsKeys.discussion(schoolId), (old) => old && { ...old, ...change });
      return queryClient.invalidateQueries({ queryKey: rootKeys.ranking });
    },
  });
}

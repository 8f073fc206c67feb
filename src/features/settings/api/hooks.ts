// Settings (SPEC §2): the school's payment integrations (keys stored server-side, shown by their last
// 4 characters) and the platform's system payment key (super admin).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/lib/toast';
import { supabase } from '@/lib/supabase';
import type { Tables } from '@/types/database';
import { rootKeys } from '@/lib/query-keys';
import { expectRows } from '@/lib/db';
import { fetchWebhookSecret, rotateWebhookSecret, setWebhookToken } from './queries';

export type Integration = Tables<'integration_settings'>;

export const settingsKeys = {
  integrations: (schoolId: string) => [...rootKeys.settings, 'integrations', schoolId] as const,
  systemKey: [...rootKeys.settings, 'system-key'] as const,
  webhookSecret: (schoolId: string) => [...rootKeys.settings, 'webhook-secret', schoolId] as const,
};

export function useIntegrations(schoolId: string) {
  return useQuery({
    queryKey: settingsKeys.integrations(schoolId),
    queryFn: async () => {
      const { data, error } = await supabase.from('integration_settings').select('*').eq('school_id', schoolId).order('created_at', { ascending: false });
      if (error) throw error;
      return data ?? [];
    },
  });
}

export interface NewIntegration {
  provider: 'asaas' | 'stripe';
  environment: 'sandbox' | 'production';
  api_key: string;
  webhook_token: string;
}

export function useAddIntegration(schoolId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (v: NewIntegration) => {
      const { error } = await supabase.rpc('create_integration', {
        p_provider: v.provider,
        p_environment: v.environment,
        p_api_key: v.api_key,
        p_school_id: schoolId,
        p_webhook_token: v.webhook_token || undefined,
      });
      if (error) throw error;
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: settingsKeys.integrations(schoolId) });
      toast.success('Integração adicionada!');
    },
    meta: { errorTitle: 'Erro ao adicionar integração' },
  });
}

export function useUpdateIntegration(schoolId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { id: string; is_active?: boolean; delete?: boolean }) => {
      const q = input.delete
        ? supabase.from('integration_settings').delete().eq('id', input.id).select('id')
        : supabase.from('integration_settings').update({ is_active: !!input.is_active }).eq('id', input.id).select('id');
      expectRows(await q, 'Integração não encontrada ou sem permissão');
    },
    onSuccess: (_d, input) => {
      void queryClient.invalidateQueries({ queryKey: settingsKeys.integrations(schoolId) });
      toast.success(input.delete ? 'Integração excluída!' : input.is_active ? 'Integração ativada!' : 'Integração desativada!');
    },
    meta: { errorTitle: 'Erro ao atualizar' },
  });
}

export function useSystemKey(enabled: boolean) {
  return useQuery({
    queryKey: settingsKeys.systemKey,
    enabled,
    queryFn: async () => {
      const { data, error } = await supabase.from('system_config').select('key, value_last4, updated_at').eq('key', 'ASAAS_API_KEY').maybeSingle();
      if (error) throw error;
      return data;
    },
  });
}

export function useSaveSystemKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (value: string) => {
      const { error } = await supabase.rpc('set_system_config', { p_key: 'ASAAS_API_KEY', p_value: value, p_description: 'Chave Asaas da plataforma' });
      if (error) throw error;
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: settingsKeys.systemKey });
      toast.success('Chave salva!');
    },
    meta: { errorTitle: 'Erro ao salvar chave' },
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
      void queryClient.invalidateQueries({ queryKey: settingsKeys.integrations(schoolId) });
      toast.success(token ? 'Token do webhook salvo!' : 'Token do webhook removido!');
    },
  });
}

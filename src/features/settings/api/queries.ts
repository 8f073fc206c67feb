// The settings screens' reads and writes (SPEC §2): the school's payment integrations (keys stored
// server-side, shown by their last 4 characters), the platform's system payment key, the school's
// student-webhook secret and the Asaas webhook token, the last ones behind security-definer functions;
// and the school's discussion settings (issue 26, docs/discussions.md: comments approved before they
// are published, the students' ranking), one row per school in school_discussion_settings.
import { expectRows, type DbClient } from '@/platform/db';
import type { Tables } from '@/types/database';
import type { IntegrationValues } from '../schemas';

export type Integration = Tables<'integration_settings'>;

export async function fetchIntegrations(client: DbClient, schoolId: string): Promise<Integration[]> {
  const { data, error } = await client.from('integration_settings').select('*').eq('school_id', schoolId).order('created_at', { ascending: false });
  if (error) throw error;
  return data ?? [];
}

/** The key is encrypted by the database; only its last 4 characters come back in the list. */
export async function createIntegration(client: DbClient, schoolId: string, input: IntegrationValues): Promise<void> {
  const { error } = await client.rpc('create_integration', {
    p_provider: input.provider,
    p_environment: input.environment,
    p_api_key: input.api_key,
    p_school_id: schoolId,
    p_webhook_token: input.webhook_token || undefined,
  });
  if (error) throw error;
}

const INTEGRATION_NOT_FOUND = 'Integração não encontrada ou sem permissão';

export async function setIntegrationActive(client: DbClient, integrationId: string, isActive: boolean): Promise<void> {
  expectRows(await client.from('integration_settings').update({ is_active: isActive }).eq('id', integrationId).select('id'), INTEGRATION_NOT_FOUND);
}

export async function deleteIntegration(client: DbClient, integrationId: string): Promise<void> {
  expectRows(await client.from('integration_settings').delete().eq('id', integrationId).select('id'), INTEGRATION_NOT_FOUND);
}

export const SYSTEM_KEY = 'ASAAS_API_KEY';

export async function fetchSystemKey(client: DbClient) {
  const { data, error } = await client.from('system_config').select('key, value_last4, updated_at').eq('key', SYSTEM_KEY).maybeSingle();
  if (error) throw error;
  return data;
}

export async function saveSystemKey(client: DbClient, value: string): Promise<void> {
  const { error } = await client.rpc('set_system_config', { p_key: SYSTEM_KEY, p_value: value, p_description: 'Chave Asaas da plataforma' });
  if (error) throw error;
}

export async function fetchWebhookSecret(client: DbClient, schoolId: string): Promise<string | null> {
  const { data, error } = await client.rpc('reveal_school_webhook_secret', { p_school_id: schoolId });
  if (error) throw error;
  return data;
}

/** A new secret replaces the old one at once: callers of the webhook must be updated. */
export async function rotateWebhookSecret(client: DbClient, schoolId: string): Promise<string> {
  const { data, error } = await client.rpc('rotate_school_webhook_secret', { p_school_id: schoolId });
  if (error) throw error;
  return data;
}

/** Sets, replaces or ('' ) removes the token Asaas sends as asaas-access-token. */
export async function setWebhookToken(client: DbClient, integrationId: string, token: string): Promise<void> {
  const { error } = await client.rpc('set_integration_webhook_token', { p_integration_id: integrationId, p_token: token });
  if (error) throw error;
}

export type DiscussionSettings = Pick<Tables<'school_discussion_settings'>, 'comments_require_approval' | 'ranking_enabled' | 'ranking_by_turma' | 'discussions_by_turma'>;

/** No row yet: both off (the database's defaults). */
export async function fetchDiscussionSettings(client: DbClient, schoolId: string): Promise<DiscussionSettings> {
  const { data, error } = await client
    .from('school_discussion_settings')
    .select('comments_require_approval, ranking_enabled, ranking_by_turma, discussions_by_turma')
    .eq('school_id', schoolId)
    .maybeSingle();
  if (error) throw error;
  return {
    comments_require_approval: data?.comments_require_approval ?? false, ranking_enabled: data?.ranking_enabled ?? false, ranking_by_turma: data?.ranking_by_turma ?? false,
    discussions_by_turma: data?.discussions_by_turma ?? false,
  };
}

/** Saves the switches given, keeping the other (an upsert merges only the columns it names; a new row
 * takes the database's default, off, for the rest). */
export async function saveDiscussionSetting(client: DbClient, schoolId: string, change: Partial<DiscussionSettings>): Promise<void> {
  const { error } = await client
    .from('school_discussion_settings')
    .upsert({ school_id: schoolId, ...change }, { onConflict: 'school_id' })
    .select('school_id')
    .single();
  if (error) throw error;
}

// The settings screens' reads and writes that are not a plain table: the school's student-webhook
// secret and the Asaas webhook token, each behind a security-definer function of the database.
import type { DbClient } from '@/lib/db';

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

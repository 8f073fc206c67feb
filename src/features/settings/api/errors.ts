// The database's refusals on the settings forms, in pt-BR: a constraint name is the contract with
// supabase/migrations (the RPCs answer PostgreSQL's English message, which names the constraint).
import { errorMessage } from '@/lib/utils';

const CONSTRAINT_MESSAGES: Record<string, string> = {
  integration_secrets_webhook_token_min_length: 'O token do webhook deve ter pelo menos 32 caracteres (exigência do Asaas).',
};

/** errorMessage, with a known constraint violation said in pt-BR. */
export function settingsErrorMessage(error: unknown): string {
  const text = errorMessage(error);
  for (const [constraint, message] of Object.entries(CONSTRAINT_MESSAGES)) if (text.includes(constraint)) return message;
  return text;
}

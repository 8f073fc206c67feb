// The demo schools' sandbox Asaas integrations (supabase/seed.sql): the fake Asaas of `npm start` and
// of the tests accepts these API keys and sends its webhooks with these tokens.
import type { FakeAsaasAccount } from './server.ts';

export const DEMO_ASAAS_ACCOUNTS = [
  { schoolId: '5c000000-0000-4000-8000-000000000001', apiKey: '$aact_SEGREDO_escola_demo', webhookToken: 'whtok_escola_demo_local_0123456789abcdef' },
  { schoolId: '5c000000-0000-4000-8000-000000000002', apiKey: '$aact_SEGREDO_academia_rival', webhookToken: 'whtok_academia_rival_local_0123456789abcdef' },
] as const;

/** Fake Asaas accounts whose webhooks go to asaas-webhook of the backend at `apiUrl`. */
export function demoAsaasAccounts(apiUrl: string): FakeAsaasAccount[] {
  return DEMO_ASAAS_ACCOUNTS.map((a) => ({
    apiKey: a.apiKey,
    webhookUrl: `${apiUrl}/functions/v1/asaas-webhook?school=${a.schoolId}`,
    webhookToken: a.webhookToken,
  }));
}

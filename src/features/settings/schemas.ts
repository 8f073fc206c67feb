// The settings forms' rules (SPEC §5): an integration needs its API key, the system key cannot be
// empty, and a webhook token is either absent or as long as Asaas demands.
import { z } from '@/platform/zod';
import { Constants } from '@/types/database';

/** Asaas refuses a shorter asaas-access-token (the database checks the same length). */
export const WEBHOOK_TOKEN_MIN_LENGTH = 32;

export const integrationSchema = z.object({
  provider: z.enum(Constants.public.Checks.integration_settings.provider),
  environment: z.enum(Constants.public.Checks.integration_settings.environment),
  api_key: z.string().refine((key) => key.trim() !== '', 'Preencha a chave API'),
  webhook_token: z.string(),
});
export type IntegrationValues = z.infer<typeof integrationSchema>;

export const systemKeySchema = z.object({
  value: z.string().refine((key) => key.trim() !== '', 'A chave não pode estar vazia'),
});
export type SystemKeyValues = z.infer<typeof systemKeySchema>;

/** Empty removes the token. */
export const webhookTokenSchema = z.object({
  token: z
    .string()
    .trim()
    .refine((token) => token === '' || token.length >= WEBHOOK_TOKEN_MIN_LENGTH, 'O Asaas exige um token com pelo menos 32 caracteres'),
});
export type WebhookTokenInput = z.input<typeof webhookTokenSchema>;
export type WebhookTokenValues = z.output<typeof webhookTokenSchema>;

// Settings → E-mails (issue 22): which optional e-mails the school sends, and who they come from.
import { z } from '@/lib/zod';

export const schoolEmailSettingsSchema = z.object({
  new_enrollment: z.boolean(),
  content_released: z.boolean(),
  we_miss_you: z.boolean(),
  certificate_available: z.boolean(),
  sender_name: z.string().trim().max(100, 'Máximo de 100 caracteres'),
  reply_to: z.union([z.literal(''), z.string().trim().email('Informe um e-mail válido').max(320, 'Máximo de 320 caracteres')]),
});
export type SchoolEmailSettingsValues = z.infer<typeof schoolEmailSettingsSchema>;

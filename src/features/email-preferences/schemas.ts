// Settings → E-mails (issue 22): who the school's e-mails come from. The switches of the kinds it sends
// save at once (SettingSwitch); these two fields wait for their form's "Salvar".
import { z } from '@/platform/zod';

export const schoolEmailSenderSchema = z.object({
  sender_name: z.string().trim().max(100, 'Máximo de 100 caracteres'),
  reply_to: z.union([z.literal(''), z.string().trim().email('Informe um e-mail válido').max(320, 'Máximo de 320 caracteres')]),
});
export type SchoolEmailSenderValues = z.infer<typeof schoolEmailSenderSchema>;

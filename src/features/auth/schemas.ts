// The change-password schema (a lazily loaded dialog); sign-in and sign-up rules are in ./rules.ts.
import { z } from '@/platform/zod';
import { MIN_PASSWORD } from './rules';

/** SPEC §5 new-password rules; each message has the toast title of the original screens. */
export const PASSWORD_TOO_SHORT = { title: 'Senha muito curta', message: 'A senha deve ter no mínimo 6 caracteres' } as const;
export const PASSWORD_MISMATCH = { title: 'Senhas não coincidem', message: 'Por favor, digite a mesma senha nos dois campos' } as const;

export const changePasswordSchema = z
  .object({
    password: z.string().min(MIN_PASSWORD, PASSWORD_TOO_SHORT.message),
    confirm: z.string(),
  })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: PASSWORD_MISMATCH.message });
export type ChangePasswordValues = z.infer<typeof changePasswordSchema>;

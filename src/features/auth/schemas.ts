import { z } from 'zod';

export const MIN_PASSWORD = 6;

export const loginSchema = z.object({
  email: z.string().trim().min(1, 'Informe seu email').pipe(z.email('Informe um email válido')),
  password: z.string().min(1, 'Informe sua senha'),
});
export type LoginValues = z.infer<typeof loginSchema>;

export const signUpSchema = z.object({
  name: z.string().trim().min(1, 'Informe seu nome completo').max(200, 'Nome muito longo'),
  email: z.string().trim().min(1, 'Informe seu email').pipe(z.email('Informe um email válido')),
  password: z.string().min(MIN_PASSWORD, 'A senha deve ter no mínimo 6 caracteres'),
});
export type SignUpValues = z.infer<typeof signUpSchema>;

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

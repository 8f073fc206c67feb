import { z } from '@/platform/zod';

export const CODE_MESSAGE = 'Digite os 6 dígitos do código do aplicativo';

/** The 6-digit code of the authenticator app (spaces the user may type are dropped). */
export const codeSchema = z.object({
  code: z.string().transform((v) => v.replace(/\s/g, '')).pipe(z.string().regex(/^\d{6}$/, CODE_MESSAGE)),
});
export type CodeInput = z.input<typeof codeSchema>;
export type CodeValues = z.output<typeof codeSchema>;

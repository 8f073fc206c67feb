import { z } from 'zod';
import { isValidCpf, isValidPhone } from '@/lib/format';

export const profileSchema = z.object({
  name: z.string().trim().min(1, 'Nome é obrigatório').max(200, 'Nome muito longo'),
  phone: z
    .string()
    .trim()
    .refine((v) => v === '' || isValidPhone(v), 'Telefone inválido. Use o formato (00) 00000-0000'),
  cpf: z
    .string()
    .trim()
    .refine((v) => v === '' || isValidCpf(v), 'CPF inválido'),
  address: z.string().trim().max(500, 'Endereço muito longo'),
});
export type ProfileValues = z.infer<typeof profileSchema>;

// Fields of a person shared by every form that edits one (own profile, a student, a checkout buyer),
// with the pt-BR messages of SPEC §5.
import { z } from '@/platform/zod';
import { isValidCpf, isValidPhone } from '@/utils/format';

export const personFields = {
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
};

export const emailField = z.string().trim().min(1, 'E-mail é obrigatório').email('E-mail inválido');

// The Clientes screen's forms (SPEC §2, §5): a new client (a school's administrator) and a new school.
import { z } from '@/platform/zod';
import { emailField } from '@/concepts/person-schema';

export const clientSchema = z.object({
  name: z.string().trim().min(1, 'Nome é obrigatório').max(200, 'Nome muito longo'),
  email: emailField,
  school_id: z.string().min(1, 'Selecione a escola'),
});
export type ClientValues = z.infer<typeof clientSchema>;

const slugRule = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const schoolSchema = z.object({
  name: z.string().trim().min(1, 'Nome é obrigatório').max(200, 'Nome muito longo'),
  slug: z.string().trim().min(1, 'Informe o endereço na web').max(100, 'Máximo de 100 caracteres').regex(slugRule, 'Use letras minúsculas, números e hífens (ex.: minha-escola)'),
  member_area_name: z.string().trim().min(1, 'Nome da área de membros é obrigatório').max(200, 'Nome muito longo'),
});
export type SchoolValues = z.infer<typeof schoolSchema>;

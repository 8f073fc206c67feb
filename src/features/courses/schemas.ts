// The course form of SPEC §2/§5/§9 (admin): validation with the pt-BR messages, slug and price rules.
import { z } from '@/platform/zod';
import { parsePrice } from '@/utils/format';
import { finalSlug } from '@/utils/slug';
import { Constants } from '@/types/database';

export { finalSlug, normalizeSlug } from '@/utils/slug';
export { parsePrice } from '@/utils/format';

export const COURSE_STATUSES = Constants.public.Checks.courses.status;
export type CourseStatus = (typeof COURSE_STATUSES)[number];

export const STATUS_LABEL: Record<CourseStatus, string> = { DRAFT: 'Rascunho', PUBLISHED: 'Publicado', ARCHIVED: 'Arquivado' };

/** SPEC §9: 'R$ 49,50 em 6 vezes' when more than one installment, else null. */
export function installmentPreview(price: number, installments: number, format: (n: number) => string): string | null {
  if (!Number.isFinite(price) || price <= 0 || !Number.isInteger(installments) || installments <= 1) return null;
  return `${format(Math.round((price / installments) * 100) / 100)} em ${installments} vezes`;
}

export const courseFormSchema = z.object({
  title: z.string().trim().min(1, 'Título é obrigatório').max(200, 'Máximo de 200 caracteres'),
  slug: z
    .string()
    .transform(finalSlug)
    .pipe(z.string().min(1, 'Informe o endereço na web').max(100, 'Máximo de 100 caracteres')),
  description: z.string().max(10000, 'Máximo de 10.000 caracteres'),
  purchase_url: z
    .string()
    .trim()
    .refine((v) => v === '' || /^https?:\/\/\S+$/i.test(v), 'Informe um link válido (https://...)'),
  price: z
    .string()
    .trim()
    .min(1, 'Preço é obrigatório')
    .refine((v) => !Number.isNaN(parsePrice(v)), 'Informe um preço válido, com até 2 casas decimais (mínimo 0)'),
  max_installments: z.coerce.number({ message: 'Informe o número de parcelas' }).int('Use um número inteiro').min(1, 'Mínimo de 1 parcela').max(12, 'Máximo de 12 parcelas'),
  status: z.enum(COURSE_STATUSES),
  total_lessons: z.coerce.number({ message: 'Informe um número' }).int('Use um número inteiro').min(0, 'Mínimo 0'),
  thumbnail_url: z.string().nullable(),
  thumbnail_position: z.string(),
  banner_url: z.string().nullable(),
  banner_position: z.string(),
  // Issue 14: students who complete every lesson download a certificate (on unless staff turn it off).
  certificate_enabled: z.boolean().default(true),
  // Issue 24: another course of the school offered on this course's checkout at a special price.
  bump_enabled: z.boolean().default(false),
  bump_course_id: z.string().default(''),
  bump_price: z.string().trim().default(''),
});

/** The order bump's price: Asaas's minimum charge (course_bumps_price_check). */
export const BUMP_MIN_PRICE = 5;

/** The course form's rules for the course `courseId` (null: a new one), the order bump's included. */
export const courseFormSchemaFor = (courseId: string | null) =>
  courseFormSchema.superRefine((v, ctx) => {
    if (!v.bump_enabled) return;
    if (!v.bump_course_id) ctx.addIssue({ code: 'custom', path: ['bump_course_id'], message: 'Selecione o curso oferecido' });
    else if (v.bump_course_id === courseId) ctx.addIssue({ code: 'custom', path: ['bump_course_id'], message: 'Escolha outro curso: não o próprio curso à venda' });
    const price = parsePrice(v.bump_price);
    if (!v.bump_price) ctx.addIssue({ code: 'custom', path: ['bump_price'], message: 'Informe o preço especial' });
    else if (Number.isNaN(price)) ctx.addIssue({ code: 'custom', path: ['bump_price'], message: 'Informe um preço válido, com até 2 casas decimais' });
    else if (price < BUMP_MIN_PRICE) ctx.addIssue({ code: 'custom', path: ['bump_price'], message: 'O preço especial deve ser de pelo menos R$ 5,00' });
  });

export type CourseFormInput = z.input<typeof courseFormSchema>;
export type CourseFormValues = z.output<typeof courseFormSchema>;

// The plan form (issue 24, docs/selling.md "Subscriptions"): the limits are the plans table's check
// constraints (supabase/migrations/20261126001200_subscriptions.sql), said in pt-BR before the save.
import { z } from '@/platform/zod';
import { parsePrice } from '@/utils/format';
import { finalSlug } from '@/utils/slug';
import { BILLING_TYPES, PLAN_CYCLES } from '@/concepts/subscriptions';

export { finalSlug, normalizeSlug } from '@/utils/slug';

/** Asaas's minimum charge (plans_price_check). */
export const PLAN_MIN_PRICE = 5;

export const planFormSchema = z.object({
  name: z.string().trim().min(1, 'Nome é obrigatório').max(120, 'Máximo de 120 caracteres'),
  slug: z
    .string()
    .transform(finalSlug)
    .pipe(z.string().min(1, 'Informe o endereço na web').max(100, 'Máximo de 100 caracteres')),
  description: z.string().max(2000, 'Máximo de 2.000 caracteres'),
  course_ids: z.array(z.string()).min(1, 'Selecione ao menos um curso.'),
  cycle: z.enum(PLAN_CYCLES),
  price: z
    .string()
    .trim()
    .min(1, 'Preço é obrigatório')
    .refine((v) => !Number.isNaN(parsePrice(v)), 'Informe um preço válido, com até 2 casas decimais (ex.: 49,90)')
    .refine((v) => Number.isNaN(parsePrice(v)) || parsePrice(v) >= PLAN_MIN_PRICE, 'O preço mínimo é R$ 5,00'),
  billing_types: z.array(z.enum(BILLING_TYPES)).min(1, 'Selecione ao menos uma forma de pagamento.'),
  is_active: z.boolean(),
  /** '' for no turma (issue 40): subscribers enter this turma in its course. */
  turma_id: z.string(),
});

export type PlanFormInput = z.input<typeof planFormSchema>;
export type PlanFormValues = z.output<typeof planFormSchema>;

/** The plans row the form's values make (the price in numeric reais, never rounded here). */
export function planRowFromForm(v: PlanFormValues) {
  return {
    name: v.name,
    slug: v.slug,
    description: v.description.trim() || null,
    cycle: v.cycle,
    price: parsePrice(v.price),
    // In the order Asaas's checkout offers them, whatever order they were ticked in.
    billing_types: BILLING_TYPES.filter((b) => v.billing_types.includes(b)),
    is_active: v.is_active,
    turma_id: v.turma_id || null,
  };
}

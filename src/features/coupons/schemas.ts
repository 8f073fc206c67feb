// The coupon form (issue 24, docs/selling.md): the code's format and the value's range are the table's
// check constraints (supabase/migrations/20261126001100_selling.sql), said in pt-BR before the save.
// Dates are days: "válido a partir de" opens at 00:00 and "válido até" closes at 23:59:59 in São Paulo.
import { z } from '@/platform/zod';
import { parsePrice } from '@/utils/format';
import { startOfDayInSaoPaulo } from '@/concepts/release';
import { Constants } from '@/types/database';

export const COUPON_KINDS = Constants.public.Checks.coupons.kind;
export type CouponKind = (typeof COUPON_KINDS)[number];

export const KIND_LABEL: Record<CouponKind, string> = { percent: 'Porcentagem', fixed: 'Valor fixo' };

/** What the buyer types: letters, digits, '-' and '_' (coupons_code_format), kept in capitals. */
export const normalizeCouponCode = (value: string) => value.toUpperCase().replace(/\s+/g, '');

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const optionalDay = z
  .string()
  .refine((v) => v === '' || (DAY.test(v) && startOfDayInSaoPaulo(v) !== null), 'Data inválida');
/** '' (no limit) or a whole number from 1. */
const optionalLimit = z
  .string()
  .trim()
  .refine(
    (v) => v === '' || (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 1_000_000),
    'Informe um número inteiro a partir de 1, ou deixe vazio para não limitar',
  );

export const couponFormSchema = z
  .object({
    code: z
      .string()
      .transform(normalizeCouponCode)
      .pipe(
        z
          .string()
          .min(1, 'Código é obrigatório')
          .min(3, 'Use pelo menos 3 caracteres')
          .max(40, 'Máximo de 40 caracteres')
          .regex(/^[A-Z0-9_-]+$/, 'Use só letras sem acento, números, hífen (-) e sublinhado (_)'),
      ),
    kind: z.enum(COUPON_KINDS),
    amount: z.string().trim().min(1, 'Valor é obrigatório'),
    valid_from: optionalDay,
    valid_until: optionalDay,
    max_uses: optionalLimit,
    max_uses_per_buyer: optionalLimit,
    all_courses: z.enum(['all', 'selected']),
    course_ids: z.array(z.string()),
    is_active: z.boolean(),
    /** '' for any turma (issue 40). */
    turma_id: z.string(),
  })
  .superRefine((v, ctx) => {
    const amount = parsePrice(v.amount);
    if (v.amount && Number.isNaN(amount))
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message: 'Informe um número com até 2 casas decimais (ex.: 20 ou 49,90)',
      });
    else if (v.kind === 'percent' && (amount < 0.01 || amount > 100))
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'A porcentagem vai de 0,01 a 100' });
    else if (v.kind === 'fixed' && !(amount > 0))
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'Informe um valor maior que zero' });
    if (v.valid_from && v.valid_until && v.valid_until < v.valid_from)
      ctx.addIssue({
        code: 'custom',
        path: ['valid_until'],
        message: 'A data final deve ser igual ou depois da inicial',
      });
    if (v.max_uses && v.max_uses_per_buyer && Number(v.max_uses_per_buyer) > Number(v.max_uses))
      ctx.addIssue({
        code: 'custom',
        path: ['max_uses_per_buyer'],
        message: 'O limite por comprador não pode passar do limite total',
      });
    if (v.all_courses === 'selected' && v.course_ids.length === 0)
      ctx.addIssue({ code: 'custom', path: ['course_ids'], message: 'Selecione pelo menos um curso' });
  });

export type CouponFormInput = z.input<typeof couponFormSchema>;
export type CouponFormValues = z.output<typeof couponFormSchema>;

/** The day after 'aaaa-mm-dd'. */
function nextDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + 1)).toISOString().slice(0, 10);
}

/** 00:00 in São Paulo on the day, as an ISO instant; null for no day. */
export function validFromOf(day: string): string | null {
  return day ? (startOfDayInSaoPaulo(day)?.toISOString() ?? null) : null;
}

/** The last millisecond of the day in São Paulo (the coupon expires when the next day starts). */
export function validUntilOf(day: string): string | null {
  const next = day ? startOfDayInSaoPaulo(nextDay(day)) : null;
  return next ? new Date(next.getTime() - 1).toISOString() : null;
}

let saoPauloDay: Intl.DateTimeFormat | undefined;
/** The São Paulo day of an instant, 'aaaa-mm-dd' (a date input's value); '' for none. */
export function dayInSaoPaulo(instant: string | null | undefined): string {
  if (!instant) return '';
  const at = new Date(instant);
  if (Number.isNaN(at.getTime())) return '';
  saoPauloDay ??= new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Sao_Paulo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  const p = Object.fromEntries(saoPauloDay.formatToParts(at).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}`;
}

/** The coupon row the form's values make (amounts in numeric reais or percent, never rounded here). */
export function couponRowFromForm(v: CouponFormValues) {
  return {
    code: v.code,
    kind: v.kind,
    amount: parsePrice(v.amount),
    valid_from: validFromOf(v.valid_from),
    valid_until: validUntilOf(v.valid_until),
    max_uses: v.max_uses ? Number(v.max_uses) : null,
    max_uses_per_buyer: v.max_uses_per_buyer ? Number(v.max_uses_per_buyer) : null,
    all_courses: v.all_courses === 'all',
    is_active: v.is_active,
    // A turma belongs to a course: only a coupon of chosen courses is limited to one.
    turma_id: v.all_courses === 'selected' && v.turma_id ? v.turma_id : null,
  };
}

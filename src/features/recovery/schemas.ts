// Configurações → Recuperação de vendas: school_recovery_settings' checks (docs/recovery.md) as the form
// types them. Delays in hours (the database keeps minutes: 15 min to 14 days, 1 to 3, ascending); the
// 2nd and 3rd e-mails are optional; the last e-mail's coupon is none (empty) or 1–90%.
import { z } from '@/platform/zod';

const HOURS = /^\d{1,3}([.,]\d{1,2})?$/;
const toMinutes = (v: string) => Math.round(Number(v.replace(',', '.')) * 60);

const delay = (required: boolean) =>
  z
    .string()
    .trim()
    .refine((v) => (v === '' ? !required : HOURS.test(v) && toMinutes(v) >= 15 && toMinutes(v) <= 20160), required ? 'Informe de 0,25 a 336 horas' : 'Deixe vazio ou informe de 0,25 a 336 horas');

export const recoverySettingsSchema = z
  .object({
    first: delay(true),
    second: delay(false),
    third: delay(false),
    coupon_percent: z
      .string()
      .trim()
      .refine((v) => v === '' || (/^\d{1,2}$/.test(v) && Number(v) >= 1 && Number(v) <= 90), 'Deixe vazio ou use um número inteiro de 1 a 90'),
  })
  .superRefine((v, ctx) => {
    if (v.third && !v.second) ctx.addIssue({ code: 'custom', path: ['second'], message: 'Informe o 2º e-mail antes do 3º' });
    const minutes = [v.first, v.second, v.third].filter(Boolean).map(toMinutes);
    minutes.forEach((m, i) => {
      if (i > 0 && m <= minutes[i - 1]!) ctx.addIssue({ code: 'custom', path: [i === 1 ? 'second' : 'third'], message: 'Deve ser depois do e-mail anterior' });
    });
  })
  .transform((v) => ({
    delays_minutes: [v.first, v.second, v.third].filter(Boolean).map(toMinutes),
    coupon_percent: v.coupon_percent === '' ? null : Number(v.coupon_percent),
  }));
export type RecoverySettingsInput = z.input<typeof recoverySettingsSchema>;
export type RecoverySettingsValues = z.output<typeof recoverySettingsSchema>;

/** What the form shows for what the database keeps: hours with a comma ("1,5"). */
export function recoverySettingsInput(s: { delays_minutes: number[]; coupon_percent: number | null }): RecoverySettingsInput {
  const hours = (m: number | undefined) => (m == null ? '' : String(Math.round((m / 60) * 100) / 100).replace('.', ','));
  return { first: hours(s.delays_minutes[0]), second: hours(s.delays_minutes[1]), third: hours(s.delays_minutes[2]), coupon_percent: s.coupon_percent == null ? '' : String(s.coupon_percent) };
}

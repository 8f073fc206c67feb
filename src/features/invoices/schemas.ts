// Configurações → Notas fiscais: school_invoice_settings' checks (docs/nota-fiscal.md) as the form types them.
// Rates are percentages 0–100 with up to two decimals, typed with a comma; the guarantee days 1–90.
import { z } from '@/platform/zod';
import type { InvoiceSettings, InvoiceSettingsWrite } from './api/queries';

const PERCENT = /^\d{1,3}([.,]\d{1,2})?$/;
const percent = z
  .string()
  .trim()
  .refine(
    (v) => v === '' || (PERCENT.test(v) && Number(v.replace(',', '.')) <= 100),
    'Use um percentual de 0 a 100, com até duas casas decimais (ex.: 2,5)',
  );
const toRate = (v: string) => (v === '' ? 0 : Number(v.replace(',', '.')));

export const TEMPLATE_PLACEHOLDERS = [
  ['{curso}', 'o nome do curso'],
  ['{comprador}', 'o nome de quem comprou'],
  ['{data_pagamento}', 'a data do pagamento'],
  ['{valor}', 'o valor pago'],
] as const;

export const invoiceSettingsSchema = z
  .object({
    issue_on: z.enum(['payment', 'guarantee']),
    guarantee_days: z.string().trim(),
    municipal_service_id: z.string(),
    municipal_service_name: z.string(),
    description_template: z
      .string()
      .trim()
      .min(1, 'Escreva a descrição do serviço')
      .max(2000, 'Use no máximo 2000 caracteres'),
    observations: z.string().trim().max(1000, 'Use no máximo 1000 caracteres'),
    iss_rate: percent,
    retain_iss: z.boolean(),
    cofins_rate: percent,
    csll_rate: percent,
    inss_rate: percent,
    ir_rate: percent,
    pis_rate: percent,
  })
  .superRefine((v, ctx) => {
    if (
      v.issue_on === 'guarantee' &&
      !(/^\d{1,2}$/.test(v.guarantee_days) && Number(v.guarantee_days) >= 1 && Number(v.guarantee_days) <= 90)
    )
      ctx.addIssue({ code: 'custom', path: ['guarantee_days'], message: 'Informe um número inteiro de 1 a 90 dias' });
    // The database refuses taxes adding up to more than the service (school_invoice_settings_taxes_total_check).
    const rates = [v.iss_rate, v.cofins_rate, v.csll_rate, v.inss_rate, v.ir_rate, v.pis_rate];
    if (rates.every((r) => r === '' || PERCENT.test(r)) && rates.reduce((sum, r) => sum + toRate(r), 0) > 100)
      ctx.addIssue({ code: 'custom', path: ['pis_rate'], message: 'A soma dos impostos não pode passar de 100%' });
  });
export type InvoiceSettingsInput = z.infer<typeof invoiceSettingsSchema>;

/** What the form saves for what it checked (one type in and out: the form's fields bind to it). */
export function toInvoiceSettingsWrite(v: InvoiceSettingsInput): InvoiceSettingsWrite {
  return {
    issue_on: v.issue_on,
    // On payment the days are kept as they were (a valid number) for when the school switches back.
    guarantee_days:
      /^\d{1,2}$/.test(v.guarantee_days) && Number(v.guarantee_days) >= 1 && Number(v.guarantee_days) <= 90
        ? Number(v.guarantee_days)
        : 7,
    municipal_service_id: v.municipal_service_id || null,
    municipal_service_name: v.municipal_service_id ? v.municipal_service_name || null : null,
    description_template: v.description_template,
    observations: v.observations || null,
    iss_rate: toRate(v.iss_rate),
    retain_iss: v.retain_iss,
    cofins_rate: toRate(v.cofins_rate),
    csll_rate: toRate(v.csll_rate),
    inss_rate: toRate(v.inss_rate),
    ir_rate: toRate(v.ir_rate),
    pis_rate: toRate(v.pis_rate),
  };
}

const rate = (n: number) => (n ? String(n).replace('.', ',') : '');

/** What the form shows for what the database keeps. */
export function invoiceSettingsInput(s: InvoiceSettings): InvoiceSettingsInput {
  return {
    issue_on: s.issue_on,
    guarantee_days: String(s.guarantee_days),
    municipal_service_id: s.municipal_service_id ?? '',
    municipal_service_name: s.municipal_service_name ?? s.municipal_service_code ?? '',
    description_template: s.description_template,
    observations: s.observations ?? '',
    iss_rate: rate(s.iss_rate),
    retain_iss: s.retain_iss,
    cofins_rate: rate(s.cofins_rate),
    csll_rate: rate(s.csll_rate),
    inss_rate: rate(s.inss_rate),
    ir_rate: rate(s.ir_rate),
    pis_rate: rate(s.pis_rate),
  };
}

// Recuperação → "Exportar CSV": every session of the filters, written by the one CSV writer (src/utils/csv.ts),
// which neutralises a formula in any cell (buyers type their own names). Amounts as pt-BR decimals.
import { toCsv } from '@/utils/csv';
import type { CheckoutSession } from '../api/queries';
import { STAGE_LABEL, situationOf } from './labels';

export const RECOVERY_CSV_HEADER = [
  'Aberto em',
  'Comprador',
  'E-mail',
  'Telefone',
  'Curso ou plano',
  'Leve também',
  'Cupom',
  'Etapa',
  'Situação',
  'Valor (R$)',
  'Valor pago (R$)',
  'Abandonado em',
  'E-mails enviados',
  'Contatos da equipe',
  'Último contato',
  'Não contatar',
];

const decimal = (v: number) => v.toFixed(2).replace('.', ',');

export function recoveryCsv(rows: CheckoutSession[], formatDateTime: (d: string) => string): Promise<string> {
  return toCsv(
    RECOVERY_CSV_HEADER,
    rows.map((s) => [
      formatDateTime(s.opened_at),
      s.buyer_name,
      s.buyer_email ?? '',
      s.buyer_phone ?? '',
      s.offer.kind === 'plan' ? `${s.offer.title} (assinatura)` : s.offer.title,
      s.with_bump ? 'Sim' : 'Não',
      s.coupon_code ?? '',
      STAGE_LABEL[s.stage] ?? s.stage,
      situationOf(s).label,
      decimal(s.value),
      s.paid_value == null ? '' : decimal(s.paid_value),
      s.abandoned_at ? formatDateTime(s.abandoned_at) : '',
      String(s.touches_sent),
      String(s.staff_contacts),
      s.last_touch_at ? formatDateTime(s.last_touch_at) : '',
      s.do_not_contact ? 'Sim' : 'Não',
    ]),
  );
}

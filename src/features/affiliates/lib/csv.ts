// Afiliados → "Exportar comissões (CSV)": every share of the school's sales, written by the one CSV writer
// (src/utils/csv.ts: ';', BOM, a formula in any cell neutralised; buyers and affiliates type their own names).
// Amounts as pt-BR decimals ("1234,56") so a spreadsheet in Brazil reads them as numbers.
import { toCsv } from '@/utils/csv';
import type { AdminCommission } from '../api/admin-queries';

export const COMMISSIONS_CSV_HEADER = [
  'Data',
  'Curso',
  'Comprador',
  'Valor da venda (R$)',
  'Tipo',
  'Beneficiário',
  'Carteira',
  'Base (R$)',
  'Percentual (%)',
  'Comissão (R$)',
  'Situação',
  'Split no Asaas',
];
const KIND: Record<string, string> = { affiliate: 'Afiliado', coproducer: 'Coprodutor' };
const STATUS: Record<string, string> = {
  pending: 'Pendente',
  confirmed: 'Confirmada',
  available: 'Disponível',
  reversed: 'Estornada',
};
const decimal = (v: number) => v.toFixed(2).replace('.', ',');

export function commissionsCsv(rows: AdminCommission[], formatDateTime: (d: string) => string): Promise<string> {
  return toCsv(
    COMMISSIONS_CSV_HEADER,
    rows.map((c) => [
      formatDateTime(c.created_at),
      c.course_title,
      c.buyer_name,
      decimal(c.payment_value),
      KIND[c.kind] ?? c.kind,
      c.beneficiary,
      c.wallet_id,
      decimal(c.base),
      decimal(c.percent),
      decimal(c.value),
      STATUS[c.status] ?? c.status,
      c.split_status,
    ]),
  );
}

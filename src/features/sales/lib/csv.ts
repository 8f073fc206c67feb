// Vendas → "Exportar CSV": every sale of the filters, written by the one CSV writer (src/utils/csv.ts),
// which neutralises a formula in any cell (buyers type their own names). Amounts as pt-BR decimals
// ("1234,56") so a spreadsheet in Brazil reads them as numbers.
import { toCsv } from '@/utils/csv';
import type { Sale } from '../api/queries';
import { METHOD_LABEL, itemsText, situationOf } from './labels';

export const SALES_CSV_HEADER = ['Data', 'Comprador', 'E-mail', 'Itens', 'Forma', 'Parcelas', 'Situação', 'Valor (R$)', 'Desconto (R$)', 'Cupom', 'Pago em', 'Reembolso pedido em', 'Motivo do reembolso'];

/** The database's two-decimal amount with a comma: display only, no arithmetic. */
const decimal = (v: number) => v.toFixed(2).replace('.', ',');

export function salesCsv(rows: Sale[], formatDateTime: (d: string) => string): Promise<string> {
  return toCsv(
    SALES_CSV_HEADER,
    rows.map((s) => [
      formatDateTime(s.created_at),
      s.buyer_name,
      s.buyer_email ?? '',
      itemsText(s),
      METHOD_LABEL[s.billing_type] ?? s.billing_type,
      String(s.installment_count),
      situationOf(s).label,
      decimal(s.value),
      decimal(s.discount),
      s.coupon_code ?? '',
      s.paid_at ? formatDateTime(s.paid_at) : '',
      s.refund_requested_at ? formatDateTime(s.refund_requested_at) : '',
      s.refund_reason ?? '',
    ]),
  );
}

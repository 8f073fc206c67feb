// Vendas → "Exportar notas do mês": the month's invoices for the accountant, written by the one CSV writer
// (src/utils/csv.ts: ';', BOM, a formula in any cell neutralised; buyers type their own names). Amounts and
// rates as pt-BR decimals ("1234,56") so a spreadsheet in Brazil reads them as numbers.
import { toCsv } from '@/utils/csv';
import type { AdminInvoice } from '../api/queries';
import { INVOICE_STATUS_LABEL } from './labels';

export const INVOICES_CSV_HEADER = [
  'Número',
  'Emitida em',
  'Situação',
  'Comprador',
  'CPF',
  'E-mail',
  'Curso',
  'Valor (R$)',
  'Alíquota ISS (%)',
  'ISS (R$)',
  'Cancelada em',
  'Erro',
  'PDF',
  'XML',
];

const decimal = (v: number | null) => (v == null ? '' : v.toFixed(2).replace('.', ','));

export function invoicesCsv(rows: AdminInvoice[], formatDateTime: (d: string) => string): Promise<string> {
  return toCsv(
    INVOICES_CSV_HEADER,
    rows.map((i) => [
      i.number ?? '',
      i.authorized_at ? formatDateTime(i.authorized_at) : '',
      INVOICE_STATUS_LABEL[i.status] ?? i.status,
      i.buyer_name,
      i.buyer_cpf ?? '',
      i.buyer_email ?? '',
      i.course_title,
      decimal(i.value),
      decimal(i.iss_rate),
      decimal(i.iss_value),
      i.cancelled_at ? formatDateTime(i.cancelled_at) : '',
      i.status === 'error' ? (i.error_message ?? '') : '',
      i.pdf_url ?? '',
      i.xml_url ?? '',
    ]),
  );
}

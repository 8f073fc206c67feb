// How the screens say an invoice's status (docs/nota-fiscal.md, "Statuses"): pending says when it will be issued.
import type { BadgeVariant } from '@/components/ui/badge';
import type { InvoiceStatus } from '../api/queries';

export const INVOICE_STATUS_LABEL: Record<InvoiceStatus, string> = {
  pending: 'Agendada',
  creating: 'Enviando',
  scheduled: 'Agendada no Asaas',
  synchronized: 'Enviada à prefeitura',
  authorized: 'Emitida',
  error: 'Com erro',
  processing_cancellation: 'Cancelando',
  cancelled: 'Cancelada',
  cancellation_denied: 'Cancelamento negado pela prefeitura',
  not_issued: 'Não emitida (reembolso na garantia)',
};

const VARIANT: Record<InvoiceStatus, BadgeVariant> = {
  pending: 'secondary',
  creating: 'secondary',
  scheduled: 'secondary',
  synchronized: 'secondary',
  authorized: 'success',
  error: 'destructive',
  processing_cancellation: 'secondary',
  cancelled: 'outline',
  cancellation_denied: 'destructive',
  not_issued: 'outline',
};

let day: Intl.DateTimeFormat | undefined;
/** dd/mm in Brazil's time zone. */
function dayMonth(iso: string): string {
  day ??= new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit', timeZone: 'America/Sao_Paulo' });
  return day.format(new Date(iso));
}

export function invoiceStatusOf(
  status: InvoiceStatus,
  issueAt?: string | null,
): { label: string; variant: BadgeVariant } {
  const label =
    status === 'pending' && issueAt ? `Agendada (emite em ${dayMonth(issueAt)})` : INVOICE_STATUS_LABEL[status];
  return { label, variant: VARIANT[status] };
}

/** The note stands (its PDF and XML are the buyer's): authorized, or a cancellation the municipality denied. */
export const hasDocument = (status: InvoiceStatus | null) =>
  status === 'authorized' || status === 'cancellation_denied';

// How Vendas says a sale: its method, its situation (with "Reembolso pedido" between the request and
// Asaas's refund event), what it bought, and whether "Reembolsar" applies.
import type { BadgeVariant } from '@/components/ui/badge';
import type { Sale, SaleMethod, SaleStatus } from '../api/queries';

let time: Intl.DateTimeFormat | undefined;
/** hh:mm in Brazil's time zone, beside formatDate's day. */
export function timeOf(iso: string): string {
  time ??= new Intl.DateTimeFormat('pt-BR', { hour: '2-digit', minute: '2-digit', timeZone: 'America/Sao_Paulo' });
  return time.format(new Date(iso));
}

export const METHOD_LABEL: Record<SaleMethod, string> = { PIX: 'PIX', BOLETO: 'Boleto', CREDIT_CARD: 'Cartão' };

export const STATUS_LABEL: Record<SaleStatus, string> = {
  PENDING: 'Pendente',
  CONFIRMED: 'Confirmado',
  RECEIVED: 'Recebido',
  REFUNDED: 'Reembolsado',
  CHARGEBACK: 'Chargeback',
  OVERDUE: 'Vencido',
  DELETED: 'Cancelado',
  FAILED: 'Falhou',
};

const STATUS_VARIANT: Record<SaleStatus, BadgeVariant> = {
  PENDING: 'secondary',
  CONFIRMED: 'success',
  RECEIVED: 'success',
  REFUNDED: 'outline',
  CHARGEBACK: 'destructive',
  OVERDUE: 'warning',
  DELETED: 'secondary',
  FAILED: 'destructive',
};

export const REFUND_REQUESTED_LABEL = 'Reembolso pedido';

/** Asked of Asaas, and its refund event not here yet. */
export const refundPending = (s: Pick<Sale, 'status' | 'refund_requested_at'>) => !!s.refund_requested_at && s.status !== 'REFUNDED' && s.status !== 'CHARGEBACK';

export function situationOf(s: Pick<Sale, 'status' | 'refund_requested_at'>): { label: string; variant: BadgeVariant } {
  if (refundPending(s)) return { label: REFUND_REQUESTED_LABEL, variant: 'warning' };
  return { label: STATUS_LABEL[s.status] ?? s.status, variant: STATUS_VARIANT[s.status] ?? 'secondary' };
}

/** "Curso X + Leve também: Y", or "Plano: Z" for a subscription's invoice. */
export function itemsText(s: Pick<Sale, 'items'>): string {
  return s.items.map((i) => (i.kind === 'bump' ? `Leve também: ${i.title}` : i.kind === 'plan' ? `Plano: ${i.title}` : i.title)).join(' + ');
}

export const isPaid = (s: Pick<Sale, 'status'>) => s.status === 'CONFIRMED' || s.status === 'RECEIVED';

/**
 * "Reembolsar" through Asaas's API: a confirmed PIX or card payment not yet asked. A paid boleto is
 * refunded in Asaas's panel, where the buyer gives a bank account for the money (the API refuses it).
 */
export const canRefund = (s: Pick<Sale, 'status' | 'refund_requested_at' | 'billing_type'>) => isPaid(s) && !s.refund_requested_at && s.billing_type !== 'BOLETO';

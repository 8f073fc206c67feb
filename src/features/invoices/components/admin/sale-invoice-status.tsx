// Vendas' "Nota fiscal" column (issue 42): the sale's invoice status in pt-BR, its number when issued, and the
// municipality's message when it failed. One request serves the page: every row asks with the page's ids.
import { Badge } from '@/components/ui/badge';
import { useSaleInvoices } from '../../api/hooks';
import { invoiceStatusOf } from '../../lib/labels';

export function SaleInvoiceStatus({ paymentId, pageIds }: { paymentId: string; pageIds: string[] }) {
  const invoices = useSaleInvoices(pageIds);
  if (invoices.isPending) return <span className="text-xs text-muted-foreground">…</span>;
  if (invoices.isError) return <span className="text-xs text-muted-foreground">Não carregou</span>;
  const invoice = invoices.data.find((i) => i.payment_id === paymentId);
  if (!invoice) return <span className="text-muted-foreground">—</span>;
  const { label, variant } = invoiceStatusOf(invoice.status, invoice.issue_at);
  return (
    <div className="grid max-w-[11rem] justify-items-start gap-1">
      <Badge variant={variant} className="whitespace-normal">
        {label}
      </Badge>
      {invoice.number && <span className="text-xs whitespace-nowrap text-muted-foreground tabular-nums">Nº {invoice.number}</span>}
      {invoice.status === 'error' && invoice.error_message && (
        <span className="line-clamp-2 text-xs text-destructive" title={invoice.error_message}>
          {invoice.error_message}
        </span>
      )}
    </div>
  );
}

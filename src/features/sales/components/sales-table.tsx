// Vendas' table: one row per payment, newest first: when, who, what (the course and its bump), how,
// its situation, what was charged, the coupon's discount, and "Reembolsar" where Asaas can refund it.
// On a phone the table scrolls sideways under its last column, which stays in view at the right edge
// (issue 46: "Reembolsar" was off-screen at 360 px), beside the date and the buyer at the left.
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatDate, formatDateTime, formatMoney } from '@/utils/format';
import type { Sale } from '../api/queries';
import { METHOD_LABEL, canRefund, isPaid, itemsText, situationOf, timeOf } from '../lib/labels';

const COLUMNS = ['Data', 'Comprador', 'Itens', 'Forma', 'Situação', 'Valor', 'Desconto / Cupom', 'Ações'];
/** With `invoiceOf` (the route's, from features/invoices: issue 42) a "Nota fiscal" column follows Situação. */
const WITH_INVOICE = ['Data', 'Comprador', 'Itens', 'Forma', 'Situação', 'Nota fiscal', 'Valor', 'Desconto / Cupom', 'Ações'];
/** The actions' column, pinned to the right edge while the rest scrolls; opaque, with a shadow on its left. */
const PINNED = 'sticky right-0 shadow-[-8px_0_8px_-8px_rgb(15_23_42/0.25)]';

export function SalesTable({ rows, busy, onRefund, invoiceOf }: { rows: Sale[]; busy: boolean; onRefund: (sale: Sale) => void; invoiceOf?: (sale: Sale) => ReactNode }) {
  const columns = invoiceOf ? WITH_INVOICE : COLUMNS;
  return (
    <div className="relative min-w-0 overflow-x-auto rounded-xl border border-border bg-white">
      <table className={`w-full ${invoiceOf ? 'min-w-[1040px]' : 'min-w-[900px]'} text-left text-sm`} aria-busy={busy}>
        <caption className="sr-only">Vendas</caption>
        <thead className="bg-muted/50 text-xs text-muted-foreground uppercase">
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col" className={c === 'Ações' ? `${PINNED} bg-slate-50 px-3 py-3 text-right` : 'px-3 py-3'}>
                {c === 'Ações' ? <span className="sr-only">{c}</span> : c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((s) => (
            <SaleRow key={s.id} sale={s} onRefund={() => onRefund(s)} invoice={invoiceOf?.(s)} invoiceColumn={!!invoiceOf} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SaleRow({ sale: s, onRefund, invoice, invoiceColumn }: { sale: Sale; onRefund: () => void; invoice: ReactNode; invoiceColumn: boolean }) {
  const situation = situationOf(s);
  return (
    <tr className="border-t border-border align-top">
      <td className="px-3 py-3 whitespace-nowrap tabular-nums">
        {formatDate(s.created_at)}
        <span className="block text-xs text-muted-foreground">{timeOf(s.created_at)}</span>
      </td>
      <td className="max-w-[11rem] px-3 py-3">
        <p className="truncate font-medium">{s.buyer_name || 'Conta removida'}</p>
        <p className="truncate text-xs text-muted-foreground">{s.buyer_email}</p>
      </td>
      <td className="max-w-[16rem] min-w-[10rem] px-3 py-3">
        <p className="line-clamp-4" title={itemsText(s)}>
          {itemsText(s)}
        </p>
      </td>
      <td className="px-3 py-3 whitespace-nowrap">
        {METHOD_LABEL[s.billing_type] ?? s.billing_type}
        {s.installment_count > 1 && <span className="block text-xs text-muted-foreground">em {s.installment_count}x</span>}
      </td>
      <td className="px-3 py-3">
        <Badge variant={situation.variant}>{situation.label}</Badge>
        {s.refund_reason && (
          <p className="mt-1 line-clamp-2 max-w-[9rem] text-xs text-muted-foreground" title={s.refund_reason}>
            Motivo: {s.refund_reason}
          </p>
        )}
      </td>
      {invoiceColumn && <td className="px-3 py-3">{invoice}</td>}
      <td className="px-3 py-3 font-medium whitespace-nowrap tabular-nums">{formatMoney(s.value)}</td>
      <td className="px-3 py-3 whitespace-nowrap tabular-nums">
        {s.discount > 0 ? (
          <>
            <span>− {formatMoney(s.discount)}</span>
            {s.coupon_code && <span className="block font-mono text-xs text-muted-foreground">{s.coupon_code}</span>}
          </>
        ) : (
          <span className="text-muted-foreground">—</span>
        )}
      </td>
      <td className={`${PINNED} bg-white px-3 py-3 text-right`}>
        {canRefund(s) ? (
          <Button variant="outline" size="sm" onClick={onRefund} aria-label={`Reembolsar a venda de ${s.buyer_name || 'comprador'} de ${formatDateTime(s.created_at)}`}>
            Reembolsar
          </Button>
        ) : isPaid(s) && s.billing_type === 'BOLETO' && !s.refund_requested_at ? (
          <span className="inline-block max-w-[8rem] text-xs text-muted-foreground">Boleto: reembolso pelo painel do Asaas</span>
        ) : null}
      </td>
    </tr>
  );
}

// Vendas' totals for the filters (the situation aside): what the paid sales of the period came to,
// computed by admin_sales_totals, and the same by method.
import { BadgePercent, CircleDollarSign, HandCoins, Undo2 } from 'lucide-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Skeleton } from '@/components/ui/skeleton';
import { formatMoney } from '@/utils/format';
import type { SalesTotals } from '../api/queries';
import { METHOD_LABEL } from '../lib/labels';

const CARDS = [
  { key: 'gross', label: 'Bruto', hint: 'preço das vendas pagas, antes dos cupons', icon: CircleDollarSign },
  { key: 'discounts', label: 'Descontos', hint: 'dos cupons', icon: BadgePercent },
  { key: 'refunded', label: 'Reembolsado', hint: 'reembolsos e chargebacks', icon: Undo2 },
  { key: 'net', label: 'Líquido', hint: 'bruto − descontos − reembolsado', icon: HandCoins },
] as const;

const sales = (n: number) => `${n.toLocaleString('pt-BR')} ${n === 1 ? 'venda paga' : 'vendas pagas'}`;

export function SalesTotalsPanel({ query }: { query: UseQueryResult<SalesTotals> }) {
  const t = query.data;
  return (
    <section aria-labelledby="sales-totals" className="grid min-w-0 gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="sales-totals" className="text-base font-semibold">
          Totais do período
        </h2>
        <p className="text-sm text-muted-foreground">{t ? sales(t.count) : query.isError ? 'Não foi possível carregar os totais.' : ''}</p>
      </div>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" aria-label="Totais">
        {CARDS.map(({ key, label, hint, icon: Icon }) => (
          <li key={key} className="flex items-center gap-3 rounded-xl border border-border bg-white p-4 shadow-xs">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
              <Icon aria-hidden="true" className="size-5" />
            </span>
            <div className="min-w-0">
              <p className="text-sm text-muted-foreground" id={`sales-${key}`}>
                {label}
              </p>
              <div className="text-xl font-bold whitespace-nowrap tabular-nums" aria-labelledby={`sales-${key}`}>
                {t ? formatMoney(t[key]) : query.isError ? '—' : <Skeleton className="inline-block h-6 w-24 align-middle" />}
              </div>
              <p className="text-xs text-muted-foreground">{hint}</p>
            </div>
          </li>
        ))}
      </ul>
      {t && t.by_method.length > 0 && (
        <div className="relative min-w-0 overflow-x-auto rounded-xl border border-border bg-white">
          <table className="w-full min-w-[520px] text-left text-sm">
            <caption className="sr-only">Totais por forma de pagamento</caption>
            <thead className="bg-muted/50 text-xs text-muted-foreground uppercase">
              <tr>
                {['Forma', 'Vendas', 'Bruto', 'Descontos', 'Reembolsado', 'Líquido'].map((c) => (
                  <th key={c} scope="col" className="px-4 py-2">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {t.by_method.map((m) => (
                <tr key={m.method} className="border-t border-border tabular-nums">
                  <th scope="row" className="px-4 py-2 font-medium">
                    {METHOD_LABEL[m.method] ?? m.method}
                  </th>
                  <td className="px-4 py-2">{m.count.toLocaleString('pt-BR')}</td>
                  <td className="px-4 py-2 whitespace-nowrap">{formatMoney(m.gross)}</td>
                  <td className="px-4 py-2 whitespace-nowrap">{formatMoney(m.discounts)}</td>
                  <td className="px-4 py-2 whitespace-nowrap">{formatMoney(m.refunded)}</td>
                  <td className="px-4 py-2 font-medium whitespace-nowrap">{formatMoney(m.net)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

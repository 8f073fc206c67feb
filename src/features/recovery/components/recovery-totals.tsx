// Recuperação's numbers for the period (admin_recovery_totals, over the sessions abandoned in it):
// abandoned, recovered, recovered revenue, and the conversion of each e-mail and of the staff's contacts.
import { CircleDollarSign, ShoppingCart, Undo2 } from 'lucide-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Skeleton } from '@/components/ui/skeleton';
import { formatMoney } from '@/utils/format';
import type { RecoveryTotals } from '../api/queries';

const count = (n: number) => n.toLocaleString('pt-BR');
const percent = (v: number | null) =>
  v == null ? '—' : `${(v * 100).toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%`;

const CARDS = [
  { key: 'abandoned', label: 'Abandonados', hint: 'checkouts e cobranças não pagas', icon: ShoppingCart, show: count },
  { key: 'recovered', label: 'Recuperados', hint: 'pagos até 7 dias após um contato', icon: Undo2, show: count },
  {
    key: 'recovered_revenue',
    label: 'Receita recuperada',
    hint: 'valor pago das vendas recuperadas',
    icon: CircleDollarSign,
    show: formatMoney,
  },
] as const;

export function RecoveryTotalsPanel({ query }: { query: UseQueryResult<RecoveryTotals> }) {
  const t = query.data;
  const rows = t
    ? [
        ...t.by_touch.map((b) => ({
          name: `${b.touch}º e-mail`,
          sent: b.sent,
          recovered: b.recovered,
          conversion: b.conversion,
        })),
        {
          name: 'Equipe',
          sent: t.by_staff.contacted,
          recovered: t.by_staff.recovered,
          conversion: t.by_staff.contacted ? t.by_staff.recovered / t.by_staff.contacted : null,
        },
      ]
    : [];
  return (
    <section aria-labelledby="recovery-totals" className="grid min-w-0 gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="recovery-totals" className="text-base font-semibold">
          Números do período
        </h2>
        {query.isError && <p className="text-sm text-muted-foreground">Não foi possível carregar os números.</p>}
      </div>
      <ul className="grid gap-3 sm:grid-cols-3" aria-label="Números do período">
        {CARDS.map(({ key, label, hint, icon: Icon, show }) => (
          <li key={key} className="flex items-center gap-3 rounded-xl border border-border bg-white p-4 shadow-xs">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
              <Icon aria-hidden="true" className="size-5" />
            </span>
            <div className="min-w-0">
              <p className="text-sm text-muted-foreground" id={`recovery-${key}`}>
                {label}
              </p>
              <div className="text-xl font-bold whitespace-nowrap tabular-nums" aria-labelledby={`recovery-${key}`}>
                {t ? show(t[key]) : query.isError ? '—' : <Skeleton className="inline-block h-6 w-24 align-middle" />}
              </div>
              <p className="text-xs text-muted-foreground">{hint}</p>
            </div>
          </li>
        ))}
      </ul>
      {t && (
        <div className="relative min-w-0 overflow-x-auto rounded-xl border border-border bg-white">
          <table className="w-full text-left text-xs sm:text-sm">
            <caption className="sr-only">Conversão por contato</caption>
            <thead className="bg-muted/50 text-xs text-muted-foreground">
              <tr>
                {['Contato', 'Enviados', 'Recuperados', 'Conversão'].map((c) => (
                  <th key={c} scope="col" className="px-1.5 py-2 sm:px-3">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.name} className="border-t border-border tabular-nums">
                  <th scope="row" className="px-1.5 py-2 font-medium sm:px-3 whitespace-nowrap">
                    {r.name}
                  </th>
                  <td className="px-1.5 py-2 sm:px-3">{count(r.sent)}</td>
                  <td className="px-1.5 py-2 sm:px-3">{count(r.recovered)}</td>
                  <td className="px-1.5 py-2 sm:px-3">{percent(r.conversion)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

// The frame of every chart: the title, the period's total and its change ("+12% vs. período
// anterior"), a text summary for screen readers, "Ver tabela" (the same numbers as a real <table>),
// "Exportar CSV" (the one CSV writer, formula-safe), and the loading, load-error and empty states.
// The chart itself is the child; a card without one is a table (a per-lesson report).
import { useId, useState, type ReactNode } from 'react';
import { useMutation } from '@tanstack/react-query';
import { BarChart3, Download, Loader2, Table2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { downloadCsv, toCsv } from '@/utils/csv';
import { cn } from '@/utils/cn';
import { NO_DATA } from './chart-format';

/** A column of the table and of the CSV. */
export interface ChartColumn<T> {
  header: string;
  /** The cell as the table shows it. */
  cell: (row: T) => string;
  /** The CSV's header, when it says more (a unit): "Receita (R$)". */
  csvHeader?: string;
  /** The CSV's value, when a spreadsheet wants it plainer ("1234,56" for "R$ 1.234,56"). */
  csv?: (row: T) => string;
  /** Right-aligned, tabular digits. */
  numeric?: boolean;
  /** A column of the table only (a number with its share, "38 (76%)") or of the CSV only (each apart). */
  only?: 'table' | 'csv';
}

export interface ChartCardProps<T> {
  title: string;
  /** Under the title, small: what is counted ("entraram ou estudaram"). */
  description?: string;
  /** The read behind the card (a TanStack query). */
  query: { isPending: boolean; isError: boolean; refetch: () => unknown };
  loadErrorTitle: string;
  rows: T[];
  rowKey: (row: T) => string;
  columns: ChartColumn<T>[];
  /** Nothing to draw (no rows, or every value zero): the empty state instead of the chart and the table. */
  empty?: boolean;
  emptyText?: string;
  /** The period's total, formatted ("42", "R$ 1.234,56"). */
  total?: string;
  /** "+12% vs. período anterior". */
  change?: string;
  /** What a sighted reader takes from the chart, in words (read by screen readers). */
  summary?: string;
  /** Above the chart: a legend, a note. */
  note?: ReactNode;
  /** The file's name without the date: `novos-alunos` → novos-alunos-2026-11-26.csv. */
  csvFile: string;
  /** The chart; without one the card shows its table. */
  children?: ReactNode;
  /** Height of the loading skeleton (the chart's). */
  skeletonHeight?: number;
  className?: string;
}

export function ChartCard<T>(props: ChartCardProps<T>) {
  const { title, description, query, loadErrorTitle, rows, columns, total, change, summary, note, csvFile, children, skeletonHeight = 200, className } = props;
  const [asTable, setAsTable] = useState(false);
  const id = useId();
  const ready = !query.isPending && !query.isError;
  const empty = ready && (props.empty ?? rows.length === 0);
  const csvColumns = columns.filter((c) => c.only !== 'table');
  const exportCsv = useMutation({
    mutationFn: async () =>
      downloadCsv(
        `${csvFile}-${new Date().toISOString().slice(0, 10)}.csv`,
        await toCsv(
          csvColumns.map((c) => c.csvHeader ?? c.header),
          rows.map((r) => csvColumns.map((c) => (c.csv ?? c.cell)(r))),
        ),
      ),
    meta: { errorTitle: 'Erro ao exportar' },
  });

  let body: ReactNode;
  if (query.isPending) body = <Skeleton style={{ height: skeletonHeight }} />;
  else if (query.isError) body = <LoadError title={loadErrorTitle} onRetry={query.refetch} />;
  else if (empty) body = <EmptyState title={props.emptyText ?? NO_DATA} className="py-8" />;
  else if (children && !asTable) body = children;
  // Beside a chart the table keeps about the chart's height (it scrolls); a card that is a table shows it whole.
  else body = <ChartTable caption={title} rows={rows} rowKey={props.rowKey} columns={columns} tall={!children} />;

  return (
    <section aria-labelledby={`${id}-title`} className={cn('grid min-w-0 content-start gap-4 rounded-xl border border-border bg-white p-4 shadow-xs sm:p-5', className)}>
      {/* The numbers shrink (a long description wraps) before the buttons go below them: on a phone only. */}
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 flex-1 basis-40">
          <h3 id={`${id}-title`} className="font-semibold">
            {title}
          </h3>
          {description && <p className="text-xs text-muted-foreground">{description}</p>}
          {total !== undefined && (
            <div className="text-2xl font-bold tabular-nums" aria-busy={query.isPending}>
              {query.isPending ? <Skeleton className="inline-block h-7 w-14 align-middle" /> : query.isError ? '—' : total}
            </div>
          )}
          {change && ready && <p className="text-xs text-muted-foreground">{change}</p>}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {children && ready && !empty && (
            <Button variant="outline" size="sm" aria-controls={`${id}-body`} onClick={() => setAsTable((t) => !t)}>
              {asTable ? <BarChart3 aria-hidden="true" /> : <Table2 aria-hidden="true" />} {asTable ? 'Ver gráfico' : 'Ver tabela'}
            </Button>
          )}
          <Button variant="outline" size="sm" onClick={() => exportCsv.mutate()} disabled={!ready || empty || exportCsv.isPending}>
            {exportCsv.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Download aria-hidden="true" />} Exportar CSV
          </Button>
        </div>
      </div>
      {summary && ready && !empty && <p className="sr-only">{summary}</p>}
      {note && ready && !empty && note}
      <div id={`${id}-body`} className="min-w-0">
        {body}
      </div>
    </section>
  );
}

/**
 * The chart's numbers as a table: the same rows and columns as its CSV. A table wider than a phone
 * scrolls inside its own box (a data table keeps its two dimensions), which the keyboard can reach.
 */
function ChartTable<T>({ caption, rows, rowKey, columns: all, tall }: { caption: string; rows: T[]; rowKey: (row: T) => string; columns: ChartColumn<T>[]; tall: boolean }) {
  const columns = all.filter((c) => c.only !== 'csv');
  const pad = 'px-2 py-2 sm:px-3';
  return (
    <div role="group" aria-label={`Tabela: ${caption}`} tabIndex={0} className={cn('overflow-auto rounded-lg border border-border', !tall && 'max-h-72')}>
      <table className="w-full text-left text-xs sm:text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="sticky top-0 bg-muted text-xs text-muted-foreground">
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={cn(pad, 'font-medium', c.numeric && 'text-right')}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={rowKey(r)} className="border-t border-border">
              {columns.map((c, i) =>
                i === 0 ? (
                  <th key={c.header} scope="row" className={cn(pad, 'font-normal')}>
                    {c.cell(r)}
                  </th>
                ) : (
                  <td key={c.header} className={cn(pad, c.numeric && 'text-right tabular-nums whitespace-nowrap')}>
                    {c.cell(r)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

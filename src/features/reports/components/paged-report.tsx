// The frame every report tab shares: the total and 'Exportar CSV' above, the table (or its loading,
// load-error and empty states), and the pager below; the page is in the URL (?pagina=2).
import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { LoadError } from '@/components/ui/load-error';
import { Pagination } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import type { Page } from '@/platform/db';
import type { CsvExport } from '../api/hooks';
import { ExportCsvButton } from './export-csv-button';

export interface PagedReportProps<T> {
  query: UseQueryResult<Page<T>>;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  /** Singular and plural, for the total ('1 aluno', '30 alunos'). */
  noun: [string, string];
  loadErrorTitle: string;
  empty: ReactNode;
  /** The column headers, in order. */
  columns: string[];
  caption?: string;
  minWidth: string;
  rowKey: (row: T) => string;
  /** The row's cells (`<td>`s). */
  cells: (row: T) => ReactNode;
  exportFile: string;
  exportRows: CsvExport;
  pagerLabel: string;
}

export function PagedReport<T>({ query, page, pageSize, onPageChange, noun, loadErrorTitle, empty, columns, caption, minWidth, rowKey, cells, exportFile, exportRows, pagerLabel }: PagedReportProps<T>) {
  const total = query.data?.total;
  let body: ReactNode;
  if (query.isPending) body = <Skeleton className="h-48 rounded-xl" />;
  else if (query.isError) body = <LoadError title={loadErrorTitle} onRetry={query.refetch} />;
  else if (query.data.rows.length === 0) body = empty;
  else
    body = (
      <div className="overflow-x-auto rounded-xl border border-border bg-white">
        <table className="w-full text-left text-sm" style={{ minWidth }}>
          {caption && <caption className="sr-only">{caption}</caption>}
          <thead className="bg-muted/50 text-xs text-muted-foreground uppercase">
            <tr>
              {columns.map((c) => (
                <th key={c} scope="col" className="px-4 py-3">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {query.data.rows.map((row) => (
              <tr key={rowKey(row)} className="border-t border-border">
                {cells(row)}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {total === undefined ? '' : `${total.toLocaleString('pt-BR')} ${total === 1 ? noun[0] : noun[1]}`}
        </p>
        <ExportCsvButton fileName={exportFile} disabled={!total} rows={exportRows} />
      </div>
      {body}
      {total !== undefined && <Pagination page={page} pageSize={pageSize} total={total} onPageChange={onPageChange} label={pagerLabel} />}
    </div>
  );
}


// Vendas (issue 24): every payment of the school with its buyer, items, method, situation, value and
// coupon; filters and the page in the URL (?situacao=…&forma=…&curso=…&de=…&ate=…&pagina=2); the
// totals of the paid sales of the filters; "Reembolsar" and "Exportar CSV" (every row of the filters).
// What features/invoices owns comes in from the route (issue 42): each sale's invoice (`invoiceOf`, with the
// page's sales so one request serves the page) and the period's "Notas fiscais" (`invoices`).
import { useState, type ReactNode } from 'react';
import { Download, Loader2, Receipt } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { useListParams } from '@/utils/list-params';
import { useExportSales, useSales, useSalesTotals } from '../api/hooks';
import { SALES_PAGE_SIZE, type Sale } from '../api/queries';
import type { CourseOption } from '@/concepts/course-filter';
import { filtersOf } from '../lib/filters';
import { RefundDialog } from './refund-dialog';
import { SalesFiltersBar } from './sales-filters';
import { SalesTable } from './sales-table';
import { SalesTotalsPanel } from './sales-totals';

export interface SalesPageProps {
  schoolId: string;
  courses: CourseOption[];
  invoiceOf?: (sale: Sale, page: Sale[]) => ReactNode;
  invoices?: (period: { from: string; to: string }) => ReactNode;
}

export function SalesPage({ schoolId, courses, invoiceOf, invoices }: SalesPageProps) {
  const { page, setPage, filter, setFilter } = useListParams();
  const filters = filtersOf(filter, courses);
  const sales = useSales(schoolId, filters, page);
  const totals = useSalesTotals(schoolId, filters);
  const exportCsv = useExportSales();
  const [refunding, setRefunding] = useState<Sale | null>(null);
  const filtered = Object.values(filters).some(Boolean);
  const total = sales.data?.total ?? 0;

  return (
    <AdminPage>
      <PageHeader
        title="Vendas"
        description="Pagamentos, totais do período e reembolsos"
        actions={
          <Button variant="outline" onClick={() => exportCsv.mutate({ schoolId, filters })} disabled={exportCsv.isPending || !total}>
            {exportCsv.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Download aria-hidden="true" />} Exportar CSV
          </Button>
        }
      />
      <SalesFiltersBar filters={filters} courses={courses} onChange={setFilter} />
      <SalesTotalsPanel query={totals} />
      {invoices?.({ from: filters.from, to: filters.to })}
      {sales.isPending ? (
        <Skeleton className="h-64 rounded-xl" />
      ) : sales.isError ? (
        <LoadError title="Não foi possível carregar as vendas" onRetry={sales.refetch} />
      ) : sales.data.rows.length === 0 ? (
        <EmptyState
          icon={Receipt}
          title="Nenhuma venda encontrada"
          description={filtered ? 'Mude os filtros para ver outras vendas.' : 'As vendas aparecem aqui quando um aluno compra um curso pelo checkout.'}
        />
      ) : (
        <SalesTable
          rows={sales.data.rows}
          busy={sales.isFetching}
          onRefund={setRefunding}
          invoiceOf={invoiceOf && ((sale) => invoiceOf(sale, sales.data.rows))}
        />
      )}
      {sales.data && <Pagination page={page} pageSize={SALES_PAGE_SIZE} total={sales.data.total} onPageChange={setPage} label="Páginas das vendas" noun={['venda', 'vendas']} />}
      {refunding && <RefundDialog sale={refunding} onClose={() => setRefunding(null)} />}
    </AdminPage>
  );
}

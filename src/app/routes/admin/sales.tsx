// Vendas: features/sales' page, with features/invoices' column and "Notas fiscais" (issue 42) passed in.
import { PageSpinner } from '@/components/ui/spinner';
import { useCourseOptions } from '@/features/courses/api/admin-hooks';
import { InvoicesPanel } from '@/features/invoices/components/admin/invoices-panel';
import { SaleInvoiceStatus } from '@/features/invoices/components/admin/sale-invoice-status';
import { SalesPage } from '@/features/sales/components/sales-page';
import { WithOwnSchool } from '@/app/own-school';

function Sales({ schoolId }: { schoolId: string }) {
  const courses = useCourseOptions(schoolId);
  if (courses.isPending) return <PageSpinner />;
  return (
    <SalesPage
      schoolId={schoolId}
      courses={(courses.data ?? []).map((c) => ({ id: c.id, title: c.title }))}
      invoiceOf={(sale, page) => <SaleInvoiceStatus paymentId={sale.id} pageIds={page.map((s) => s.id)} />}
      invoices={(period) => <InvoicesPanel schoolId={schoolId} period={period} />}
    />
  );
}

export default function AdminSalesPage() {
  return <WithOwnSchool>{(school) => <Sales schoolId={school.id} />}</WithOwnSchool>;
}

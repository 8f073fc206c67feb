// Recuperação (issue 41): the school's checkouts that did not end in a sale (abandoned checkouts, unpaid
// PIX and boletos), with the buyer, the offer, the value, how far they got, when, and the touches sent;
// filters and the page in the URL (?etapa=…&curso=…&de=…&ate=…&pagina=2); the period's numbers above;
// the staff's follow-up per card and "Exportar CSV" (every row of the filters). docs/recovery.md.
import { useState } from 'react';
import { Download, Loader2, ShoppingCart } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import type { CourseOption } from '@/concepts/course-filter';
import { useListParams } from '@/utils/list-params';
import {
  useCheckoutSessions,
  useExportCheckoutSessions,
  useRecordStaffContact,
  useRecoveryTotals,
  useSetDoNotContact,
} from '../api/hooks';
import { RECOVERY_PAGE_SIZE, type CheckoutSession } from '../api/queries';
import { filtersOf } from '../lib/filters';
import { RecoveryFiltersBar } from './recovery-filters';
import { RecoveryTotalsPanel } from './recovery-totals';
import { SessionCard } from './session-card';

export function RecoveryPage({ schoolId, courses }: { schoolId: string; courses: CourseOption[] }) {
  const { page, setPage, filter, setFilter } = useListParams();
  const filters = filtersOf(filter, courses);
  const sessions = useCheckoutSessions(schoolId, filters, page);
  const totals = useRecoveryTotals(schoolId, filters);
  const exportCsv = useExportCheckoutSessions();
  const contact = useRecordStaffContact();
  const doNotContact = useSetDoNotContact();
  const [stopping, setStopping] = useState<CheckoutSession | null>(null);
  const filtered = Object.values(filters).some(Boolean);
  const total = sessions.data?.total ?? 0;

  return (
    <AdminPage>
      <PageHeader
        title="Recuperação"
        description="Checkouts abandonados e cobranças não pagas, e o que voltou a ser venda"
        actions={
          <Button
            variant="outline"
            onClick={() => exportCsv.mutate({ schoolId, filters })}
            disabled={exportCsv.isPending || !total}
          >
            {exportCsv.isPending ? (
              <Loader2 className="animate-spin" aria-hidden="true" />
            ) : (
              <Download aria-hidden="true" />
            )}{' '}
            Exportar CSV
          </Button>
        }
      />
      <RecoveryFiltersBar filters={filters} courses={courses} onChange={setFilter} />
      <RecoveryTotalsPanel query={totals} />
      {sessions.isPending ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-48 rounded-xl" />
          ))}
        </div>
      ) : sessions.isError ? (
        <LoadError title="Não foi possível carregar os checkouts" onRetry={sessions.refetch} />
      ) : sessions.data.rows.length === 0 ? (
        <EmptyState
          icon={ShoppingCart}
          title="Nenhum checkout encontrado"
          description={
            filtered
              ? 'Mude os filtros para ver outros checkouts.'
              : 'Os checkouts aparecem aqui quando um aluno abre a página de compra de um curso.'
          }
        />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Checkouts" aria-busy={sessions.isFetching}>
          {sessions.data.rows.map((s) => (
            <SessionCard
              key={s.id}
              session={s}
              onContact={(channel) => contact.mutate({ sessionId: s.id, channel })}
              onDoNotContact={() =>
                s.do_not_contact ? doNotContact.mutate({ sessionId: s.id, doNotContact: false }) : setStopping(s)
              }
            />
          ))}
        </ul>
      )}
      {sessions.data && (
        <Pagination
          page={page}
          pageSize={RECOVERY_PAGE_SIZE}
          total={sessions.data.total}
          onPageChange={setPage}
          label="Páginas dos checkouts"
          noun={['checkout', 'checkouts']}
        />
      )}
      <ConfirmDialog
        open={!!stopping}
        onOpenChange={(o) => !o && setStopping(null)}
        title="Não contatar este comprador?"
        description={`${stopping?.buyer_name || 'O comprador'} não receberá mais e-mails de recuperação ${stopping?.offer.kind === 'plan' ? 'da assinatura' : 'da compra'} de "${stopping?.offer.title ?? ''}". Você pode voltar atrás depois.`}
        confirmLabel="Não contatar"
        pending={doNotContact.isPending}
        onConfirm={() =>
          stopping &&
          doNotContact.mutate({ sessionId: stopping.id, doNotContact: true }, { onSettled: () => setStopping(null) })
        }
      />
    </AdminPage>
  );
}

// Registro de atividades (issue 44): every change that staff, the super admin, a webhook or a payment
// event made, recorded by the database (docs/privacy.md "Audit log"), newest first; filters and the page
// in the URL (?pessoa=…&objeto=…&acao=…&de=…&ate=…&pagina=2); before and after side by side in a dialog;
// "Exportar CSV" (every entry of the filters). A school's admins see their school; the super admin
// (schoolId null) every school, with the school's name in a column.
import { useState } from 'react';
import { Download, History, Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { useListParams } from '@/utils/list-params';
import { useAuditActors, useAuditLog, useExportAuditLog } from '../api/hooks';
import { AUDIT_PAGE_SIZE, type AuditEntry } from '../api/queries';
import { SCHOOL_PARAM, filtersOf } from '../lib/filters';
import { AuditFiltersBar } from './audit-filters';
import { AuditTable } from './audit-table';
import { ChangeDialog } from './change-dialog';

/** A school option of the super admin's "Escola" filter. */
export interface AuditSchool {
  id: string;
  name: string;
}

/** `schoolId`: a school admin's school; null for the super admin, who may pick one of `schools`. */
export function AuditPage({ schoolId: ownSchool, schools = [] }: { schoolId: string | null; schools?: AuditSchool[] }) {
  const { page, setPage, filter, setFilter } = useListParams();
  const filters = filtersOf(filter);
  const picked = ownSchool ? '' : (schools.find((s) => s.id === filter(SCHOOL_PARAM))?.id ?? '');
  const schoolId = ownSchool ?? (picked || null);
  const log = useAuditLog(schoolId, filters, page);
  const actors = useAuditActors(schoolId);
  const exportCsv = useExportAuditLog();
  const [open, setOpen] = useState<AuditEntry | null>(null);
  const filtered = Object.values(filters).some(Boolean);
  const total = log.data?.total ?? 0;

  return (
    <AdminPage>
      <PageHeader
        title="Registro de atividades"
        description={
          ownSchool
            ? 'Quem mudou o quê na escola: cursos, preços, matrículas, alunos, configurações e mais'
            : 'Quem mudou o quê em todas as escolas da plataforma'
        }
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
      <AuditFiltersBar
        filters={filters}
        actors={actors.data ?? []}
        onChange={setFilter}
        schools={ownSchool ? undefined : { options: schools, value: picked }}
      />
      {log.isPending ? (
        <Skeleton className="h-64 rounded-xl" />
      ) : log.isError ? (
        <LoadError title="Não foi possível carregar o registro de atividades" onRetry={log.refetch} />
      ) : log.data.rows.length === 0 ? (
        <EmptyState
          icon={History}
          title="Nenhuma atividade encontrada"
          description={
            filtered ? 'Mude os filtros para ver outras atividades.' : 'As mudanças feitas pela equipe aparecem aqui.'
          }
        />
      ) : (
        <AuditTable rows={log.data.rows} busy={log.isFetching} showSchool={!schoolId} onOpen={setOpen} />
      )}
      {log.data && (
        <Pagination
          page={page}
          pageSize={AUDIT_PAGE_SIZE}
          total={log.data.total}
          onPageChange={setPage}
          label="Páginas do registro de atividades"
          noun={['atividade', 'atividades']}
        />
      )}
      <ChangeDialog entry={open} onOpenChange={(o) => !o && setOpen(null)} />
    </AdminPage>
  );
}

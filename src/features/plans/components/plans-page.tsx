// Planos (issue 24): every plan of the school with its cycle, price, courses, subscribers (paying, or
// cancelled with access), overdue ones and an Ativo switch. A plan is created and edited in a dialog;
// its subscribers open in another (?assinantes=<plan>&pagina=N). A plan is deactivated, not deleted:
// its subscriptions keep pointing at it.
import type { CourseOption } from '@/concepts/course-filter';
import { useState } from 'react';
import { CalendarSync, Plus, Users } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { DataTable } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { EditRowButton } from '@/components/ui/row-actions';
import { formatMoney } from '@/utils/format';
import { useListParams } from '@/utils/list-params';
import { BILLING_TYPE_LABEL, CYCLE_LABEL } from '@/concepts/subscriptions';
import { useAdminPlans, useSetPlanActive, type AdminPlan } from '../api/admin-hooks';
import { PlanDialog } from './plan-dialog';
import { SubscribersDialog } from './subscribers-dialog';

/** The URL parameter of the plan whose subscribers are open. */
export const SUBSCRIBERS_PARAM = 'assinantes';
/** The URL parameter of its tab: absent for the subscribers, 'falhas' for the attempts Asaas refused. */
export const SUBSCRIBERS_VIEW_PARAM = 'situacao';

export function PlansPage({ schoolId, courses }: { schoolId: string; courses: CourseOption[] }) {
  const plans = useAdminPlans(schoolId);
  const setActive = useSetPlanActive();
  const params = useListParams();
  const [editing, setEditing] = useState<{ plan: AdminPlan | null } | null>(null);
  const list = plans.data ?? [];
  const showing = list.find((p) => p.id === params.filter(SUBSCRIBERS_PARAM));

  return (
    <AdminPage>
      <PageHeader
        title="Planos"
        description="Assinaturas mensais ou anuais que dão acesso a um conjunto de cursos. Cada plano tem o seu checkout (/checkout/plano/endereço-do-plano) e aparece na página inicial dos alunos."
        actions={
          <Button onClick={() => setEditing({ plan: null })}>
            <Plus aria-hidden="true" /> Novo Plano
          </Button>
        }
      />
      {plans.isPending ? (
        <Skeleton className="h-48 rounded-xl" />
      ) : plans.isError ? (
        <LoadError title="Não foi possível carregar os planos" onRetry={plans.refetch} />
      ) : list.length === 0 ? (
        <EmptyState
          icon={CalendarSync}
          title="Nenhum plano criado ainda"
          description="Crie um plano mensal ou anual com os cursos que o assinante acessa enquanto paga."
        />
      ) : (
        <DataTable
          caption="Planos da escola"
          columns={['Nome', 'Ciclo', 'Preço', 'Cursos', 'Assinantes', 'Em atraso', 'Ativo', 'Ações']}
          minWidth="48rem"
        >
          {list.map((p) => (
            <tr key={p.id} className="border-t border-border align-top">
              <th scope="row" className="px-4 py-3 font-normal">
                <span className="block font-semibold">{p.name}</span>
                <span className="block text-xs text-muted-foreground">
                  /checkout/plano/{p.slug} · {p.billing_types.map((b) => BILLING_TYPE_LABEL[b]).join(', ')}
                </span>
              </th>
              <td className="px-4 py-3">{CYCLE_LABEL[p.cycle]}</td>
              <td className="px-4 py-3 font-medium whitespace-nowrap">{formatMoney(p.price)}</td>
              <td className="px-4 py-3">{p.course_ids.length}</td>
              <td className="px-4 py-3">{p.subscribers}</td>
              <td className="px-4 py-3">{p.overdue}</td>
              <td className="px-4 py-3">
                <Switch
                  checked={p.is_active}
                  disabled={setActive.isPending && setActive.variables.id === p.id}
                  onCheckedChange={(is_active) => setActive.mutate({ id: p.id, is_active })}
                  aria-label={`Plano ${p.name} ativo`}
                />
              </td>
              <td className="px-2 py-1">
                <div className="flex">
                  <Button
                    variant="ghost"
                    size="icon"
                    onClick={() => params.setFilter(SUBSCRIBERS_PARAM, p.id)}
                    aria-label={`Assinantes de ${p.name}`}
                    title="Assinantes"
                  >
                    <Users aria-hidden="true" />
                  </Button>
                  <EditRowButton name={p.name} onClick={() => setEditing({ plan: p })} iconOnly />
                </div>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {editing && (
        <PlanDialog editing={editing.plan} schoolId={schoolId} courses={courses} onClose={() => setEditing(null)} />
      )}
      {showing && (
        <SubscribersDialog
          plan={showing}
          view={params.filter(SUBSCRIBERS_VIEW_PARAM) === 'falhas' ? 'falhas' : 'assinantes'}
          onViewChange={(view) => params.setFilter(SUBSCRIBERS_VIEW_PARAM, view === 'falhas' ? view : '')}
          page={params.page}
          onPageChange={params.setPage}
          onClose={() => params.setFilters({ [SUBSCRIBERS_PARAM]: '', [SUBSCRIBERS_VIEW_PARAM]: '' })}
        />
      )}
    </AdminPage>
  );
}

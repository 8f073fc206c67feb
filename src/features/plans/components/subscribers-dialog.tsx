// Assinantes of a plan: each subscription with the subscriber's name and e-mail, its status, the end of
// the paid period and its method, a page at a time; staff cancel one (Asaas stops charging, the access
// lasts until the end of the paid period). Attempts Asaas refused (a declined card) are not subscribers:
// they are under the Falhas tab only (issue 46).
import { useState } from 'react';
import { CancelSubscriptionDialog, SubscriptionStatusBadge } from '@/concepts/subscription-status';
import { Button } from '@/components/ui/button';
import { DataTable } from '@/components/ui/data-table';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { LoadError } from '@/components/ui/load-error';
import { Pagination } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { formatDate } from '@/utils/format';
import { BILLING_TYPE_LABEL, isRunning } from '@/concepts/subscriptions';
import {
  SUBSCRIBERS_PAGE_SIZE,
  useCancelPlanSubscription,
  usePlanSubscribers,
  type AdminPlan,
  type PlanSubscriber,
  type SubscribersView,
} from '../api/admin-hooks';

const EMPTY: Record<SubscribersView, string> = {
  assinantes: 'Ninguém assinou este plano ainda.',
  falhas: 'Nenhuma tentativa de assinatura falhou.',
};

export function SubscribersDialog({
  plan,
  view,
  onViewChange,
  page,
  onPageChange,
  onClose,
}: {
  plan: AdminPlan;
  view: SubscribersView;
  onViewChange: (view: SubscribersView) => void;
  page: number;
  onPageChange: (page: number) => void;
  onClose: () => void;
}) {
  const subscribers = usePlanSubscribers(plan.id, view, page);
  const cancel = useCancelPlanSubscription();
  const [cancelling, setCancelling] = useState<PlanSubscriber | null>(null);
  const rows = subscribers.data?.rows ?? [];

  return (
    <Dialog open onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>Assinantes de {plan.name}</DialogTitle>
          <DialogDescription>Quem cancela mantém o acesso até o fim do período pago.</DialogDescription>
        </DialogHeader>
        <Tabs value={view} onValueChange={(v) => onViewChange(v as SubscribersView)}>
          <TabsList aria-label="Mostrar">
            <TabsTrigger value="assinantes">Assinantes</TabsTrigger>
            <TabsTrigger value="falhas">Falhas</TabsTrigger>
          </TabsList>
        </Tabs>
        {view === 'falhas' && (
          <p className="text-sm text-muted-foreground">
            Tentativas que o Asaas recusou (um cartão não aprovado, por exemplo). Nada foi cobrado e o aluno não tem acesso por elas.
          </p>
        )}
        {subscribers.isPending ? (
          <Skeleton className="h-48 rounded-xl" />
        ) : subscribers.isError ? (
          <LoadError title="Não foi possível carregar os assinantes" onRetry={subscribers.refetch} />
        ) : rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">{EMPTY[view]}</p>
        ) : (
          <div className="grid gap-4">
            <DataTable
              caption={`Assinantes de ${plan.name}`}
              columns={['Assinante', 'Situação', 'Pago até', 'Forma', 'Ações']}
              minWidth="40rem"
            >
              {rows.map((s) => (
                <tr key={s.id} className="border-t border-border align-top">
                  <th scope="row" className="px-4 py-3 font-normal">
                    <span className="block font-semibold">{s.name || 'Sem nome'}</span>
                    {s.email && <span className="block text-xs text-muted-foreground">{s.email}</span>}
                  </th>
                  <td className="px-4 py-3">
                    <SubscriptionStatusBadge subscription={s} />
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap">{formatDate(s.paid_until) || '—'}</td>
                  <td className="px-4 py-3">{BILLING_TYPE_LABEL[s.billing_type]}</td>
                  <td className="px-2 py-1">
                    {isRunning(s.status) && (
                      <Button
                        variant="ghost"
                        size="sm"
                        className="text-destructive hover:bg-red-50"
                        onClick={() => setCancelling(s)}
                        aria-label={`Cancelar assinatura de ${s.name || s.email || 'assinante'}`}
                      >
                        Cancelar assinatura
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </DataTable>
            <Pagination
              page={page}
              pageSize={SUBSCRIBERS_PAGE_SIZE}
              total={subscribers.data?.total ?? 0}
              onPageChange={onPageChange}
              label="Páginas de assinantes"
              noun={view === 'falhas' ? ['tentativa', 'tentativas'] : ['assinatura', 'assinaturas']}
            />
          </div>
        )}
      </DialogContent>
      <CancelSubscriptionDialog
        target={cancelling}
        pending={cancel.isPending}
        onClose={() => setCancelling(null)}
        onConfirm={() => cancelling && cancel.mutate(cancelling.id, { onSettled: () => setCancelling(null) })}
      />
    </Dialog>
  );
}

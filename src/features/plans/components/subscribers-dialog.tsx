// Assinantes of a plan: each subscription with the subscriber's name and e-mail, its status, the end of
// the paid period and its method, a page at a time; staff cancel one (Asaas stops charging, the access
// lasts until the end of the paid period).
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { LoadError } from '@/components/ui/load-error';
import { Pagination } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDate } from '@/lib/format';
import { BILLING_TYPE_LABEL, cancelConsequence, isRunning, subscriptionStatus } from '@/lib/subscriptions';
import {
  SUBSCRIBERS_PAGE_SIZE,
  useCancelPlanSubscription,
  usePlanSubscribers,
  type AdminPlan,
  type PlanSubscriber,
} from '../api/admin-hooks';

export function SubscribersDialog({
  plan,
  page,
  onPageChange,
  onClose,
}: {
  plan: AdminPlan;
  page: number;
  onPageChange: (page: number) => void;
  onClose: () => void;
}) {
  const subscribers = usePlanSubscribers(plan.id, page);
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
        {subscribers.isPending ? (
          <Skeleton className="h-48 rounded-xl" />
        ) : subscribers.isError ? (
          <LoadError title="Não foi possível carregar os assinantes" onRetry={subscribers.refetch} />
        ) : rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">Ninguém assinou este plano ainda.</p>
        ) : (
          <div className="grid gap-4">
            <div className="overflow-x-auto rounded-xl border border-border bg-white">
              <table className="w-full text-left text-sm" style={{ minWidth: '40rem' }}>
                <caption className="sr-only">Assinantes de {plan.name}</caption>
                <thead className="bg-muted/50 text-xs text-muted-foreground uppercase">
                  <tr>
                    {['Assinante', 'Situação', 'Pago até', 'Forma', 'Ações'].map((h) => (
                      <th key={h} scope="col" className="px-4 py-3">
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {rows.map((s) => {
                    const status = subscriptionStatus(s);
                    return (
                      <tr key={s.id} className="border-t border-border align-top">
                        <th scope="row" className="px-4 py-3 font-normal">
                          <span className="block font-semibold">{s.name || 'Sem nome'}</span>
                          {s.email && <span className="block text-xs text-muted-foreground">{s.email}</span>}
                        </th>
                        <td className="px-4 py-3">
                          <Badge variant={status.variant}>{status.label}</Badge>
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
                    );
                  })}
                </tbody>
              </table>
            </div>
            <Pagination
              page={page}
              pageSize={SUBSCRIBERS_PAGE_SIZE}
              total={subscribers.data?.total ?? 0}
              onPageChange={onPageChange}
              label="Páginas de assinantes"
              noun={['assinatura', 'assinaturas']}
            />
          </div>
        )}
      </DialogContent>
      <ConfirmDialog
        open={!!cancelling}
        onOpenChange={(o) => !o && setCancelling(null)}
        title="Cancelar assinatura?"
        description={
          cancelling &&
          `${cancelling.name || cancelling.email} não será mais cobrado(a) pelo Asaas. ${cancelConsequence(cancelling.paid_until, 'O assinante')}`
        }
        confirmLabel="Cancelar assinatura"
        cancelLabel="Voltar"
        pending={cancel.isPending}
        onConfirm={() => cancelling && cancel.mutate(cancelling.id, { onSettled: () => setCancelling(null) })}
      />
    </Dialog>
  );
}

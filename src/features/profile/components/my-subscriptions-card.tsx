// Minha assinatura (issue 24): each of the student's subscriptions with its plan, status, the date that
// matters now (the next charge, or the end of the access), the payment method, "Pagar" for an invoice
// still open, and "Cancelar assinatura" (Asaas stops charging; the access lasts until the end of the
// paid period). Nothing shows for a student who never subscribed.
import { useState } from 'react';
import { ExternalLink } from 'lucide-react';
import { CancelSubscriptionDialog, SubscriptionStatusBadge } from '@/concepts/subscription-status';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { formatDate } from '@/utils/format';
import { BILLING_TYPE_LABEL, isRunning, pricePerCycle } from '@/concepts/subscriptions';
import { useCancelMySubscription, useMySubscriptions, type MySubscription } from '../api/hooks';

/** The date a subscription's state is about, with its name; null when there is none yet. */
function keyDate(s: MySubscription): { label: string; value: string } | null {
  if (!s.paid_until) return null;
  const label = s.status === 'ACTIVE' ? 'Próxima cobrança' : s.status === 'OVERDUE' ? 'Pago até' : 'Acesso até';
  return { label, value: formatDate(s.paid_until) };
}

/** What the student should know beside the badge. */
function note(s: MySubscription): string | null {
  if (s.status === 'PENDING') return 'O acesso aos cursos é liberado quando o primeiro pagamento for confirmado.';
  if (s.status === 'OVERDUE')
    return 'O acesso aos cursos do plano está pausado. Pague a cobrança em aberto para voltar a estudar.';
  return null;
}

const openInvoice = (s: MySubscription) =>
  (s.invoice && (s.invoice.status === 'PENDING' || s.invoice.status === 'OVERDUE') && s.invoice.invoice_url) || null;

export function MySubscriptionsCard({ userId }: { userId: string }) {
  const subscriptions = useMySubscriptions(userId);
  const cancel = useCancelMySubscription();
  const [cancelling, setCancelling] = useState<MySubscription | null>(null);
  if (subscriptions.isPending || (subscriptions.data && subscriptions.data.length === 0)) return null;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Minha assinatura</CardTitle>
        <CardDescription>Seus planos, as cobranças e o acesso aos cursos incluídos.</CardDescription>
      </CardHeader>
      <CardContent>
        {subscriptions.isError ? (
          <LoadError title="Não foi possível carregar suas assinaturas" onRetry={subscriptions.refetch} />
        ) : (
          <ul className="grid gap-3" aria-label="Assinaturas">
            {subscriptions.data.map((s) => {
              const date = keyDate(s);
              const pay = openInvoice(s);
              const text = note(s);
              return (
                <li key={s.id} className="grid gap-3 rounded-lg border border-border p-4">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <p className="font-semibold">{s.plan_name}</p>
                    <SubscriptionStatusBadge subscription={s} />
                  </div>
                  <dl className="grid gap-3 text-sm sm:grid-cols-3">
                    <div>
                      <dt className="text-xs text-muted-foreground">Valor</dt>
                      <dd className="font-medium">{pricePerCycle(s.value, s.cycle)}</dd>
                    </div>
                    {date && (
                      <div>
                        <dt className="text-xs text-muted-foreground">{date.label}</dt>
                        <dd className="font-medium">{date.value}</dd>
                      </div>
                    )}
                    <div>
                      <dt className="text-xs text-muted-foreground">Forma de pagamento</dt>
                      <dd className="font-medium">{BILLING_TYPE_LABEL[s.billing_type]}</dd>
                    </div>
                  </dl>
                  {text && <p className="text-sm text-muted-foreground">{text}</p>}
                  {(pay || isRunning(s.status)) && (
                    <div className="flex flex-wrap gap-2">
                      {pay && (
                        <Button asChild size="sm">
                          <a href={pay} aria-label={`Pagar a cobrança de ${s.plan_name}`}>
                            <ExternalLink aria-hidden="true" /> Pagar
                          </a>
                        </Button>
                      )}
                      {isRunning(s.status) && (
                        <Button
                          variant="outline"
                          size="sm"
                          className="text-destructive"
                          onClick={() => setCancelling(s)}
                          aria-label={`Cancelar assinatura de ${s.plan_name}`}
                        >
                          Cancelar assinatura
                        </Button>
                      )}
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
      <CancelSubscriptionDialog
        target={cancelling}
        pending={cancel.isPending}
        onClose={() => setCancelling(null)}
        onConfirm={() => cancelling && cancel.mutate(cancelling.id, { onSettled: () => setCancelling(null) })}
      />
    </Card>
  );
}

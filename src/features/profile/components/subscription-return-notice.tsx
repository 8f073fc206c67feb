// Back from subscribing (issue 46): Asaas's invoice page sends the buyer to /profile?assinatura=retorno
// (create-asaas-subscription's successUrl), and so does the checkout when Asaas listed no invoice yet.
// At the top of the profile, where they land, it says how their newest subscription stands: active
// (the courses are open), or waiting for the first payment (read again every 3 s until it is confirmed).
import { Link } from 'react-router-dom';
import { CheckCircle2, Clock, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/utils/cn';
import { useMySubscriptions, type MySubscription } from '../api/hooks';

/** The newest subscription that is active or waiting for its first payment: the one just subscribed. */
function newestOf(rows: MySubscription[] | undefined): MySubscription | undefined {
  return (rows ?? []).filter((s) => s.status === 'ACTIVE' || s.status === 'PENDING').sort((a, b) => b.created_at.localeCompare(a.created_at))[0];
}
const waiting = (rows: MySubscription[] | undefined) => newestOf(rows)?.status === 'PENDING';

export function SubscriptionReturnNotice({ userId, onDismiss }: { userId: string; onDismiss: () => void }) {
  const subscriptions = useMySubscriptions(userId, { pollWhile: waiting });
  const newest = newestOf(subscriptions.data);
  if (!newest) return null;
  const active = newest.status === 'ACTIVE';
  const Icon = active ? CheckCircle2 : Clock;
  return (
    <div
      role="status"
      data-testid="subscription-return"
      className={cn(
        'mb-6 flex items-start gap-3 rounded-xl border px-4 py-4',
        active ? 'border-green-200 bg-green-50 text-green-800' : 'border-amber-200 bg-amber-50 text-amber-900',
      )}
    >
      <Icon className={cn('mt-0.5 size-6 shrink-0', active ? 'text-green-700' : 'text-amber-800')} aria-hidden="true" />
      <div className="grid min-w-0 flex-1 gap-2">
        <div>
          <p className="font-semibold">{active ? 'Assinatura ativa!' : 'Assinatura criada'}</p>
          <p className="text-sm">
            {active
              ? `Você já tem acesso aos cursos do ${newest.plan_name}. Bons estudos!`
              : `Assim que o primeiro pagamento do ${newest.plan_name} for confirmado, os cursos são liberados. Esta mensagem se atualiza sozinha.`}
          </p>
        </div>
        {active && (
          <Button asChild size="sm" className="w-fit">
            <Link to="/">Ver meus cursos</Link>
          </Button>
        )}
      </div>
      <Button variant="ghost" size="icon" className="-mt-1 -mr-2 shrink-0" onClick={onDismiss} aria-label="Fechar aviso da assinatura">
        <X aria-hidden="true" />
      </Button>
    </div>
  );
}

// The home's "Assine e tenha acesso a …" (issue 24): a card per active plan of the school the student
// does not subscribe to, with a few of its courses, the price per cycle and "Assinar" to its checkout.
// Only classes other screens already use: the stylesheet is shared by every route, the login's too.
import { Link } from 'react-router-dom';
import { CheckCircle2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import { formatMoney } from '@/utils/format';
import { usePlanOffers, type PlanOffer } from '../api/hooks';

/** How many course titles a card lists before "e mais N". */
const SHOWN_COURSES = 3;

function PlanOfferCard({ plan }: { plan: PlanOffer }) {
  const n = plan.courses.length;
  const more = n - SHOWN_COURSES;
  return (
    <article
      aria-labelledby={`plano-${plan.id}`}
      className="flex flex-col gap-3 rounded-2xl border border-border bg-white p-5 shadow-sm"
      data-testid="plan-offer"
    >
      <div>
        <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">{plan.name}</p>
        <h3 id={`plano-${plan.id}`} className="mt-1 text-base font-semibold">
          Assine e tenha acesso a {n === 1 ? '1 curso' : `${n} cursos`}
        </h3>
      </div>
      <ul className="grid gap-1 text-sm text-muted-foreground">
        {plan.courses.slice(0, SHOWN_COURSES).map((title) => (
          <li key={title} className="flex items-start gap-2">
            <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
            <span className="min-w-0 break-words">{title}</span>
          </li>
        ))}
        {more > 0 && <li>e mais {more === 1 ? '1 curso' : `${more} cursos`}</li>}
      </ul>
      <p className="mt-auto">
        <span className="text-2xl font-bold">{formatMoney(plan.price)}</span>
        <span className="text-sm text-muted-foreground">/{plan.cycle === 'YEARLY' ? 'ano' : 'mês'}</span>
      </p>
      <Button asChild className="w-full">
        <Link to={`/checkout/plano/${plan.slug}`} aria-label={`Assinar ${plan.name}`}>
          Assinar
        </Link>
      </Button>
    </article>
  );
}

export function PlanOffers({ schoolId, userId }: { schoolId: string; userId: string }) {
  const offers = usePlanOffers(schoolId, userId);
  if (offers.isError) return <LoadError title="Não foi possível carregar os planos" onRetry={offers.refetch} />;
  if (!offers.data?.length) return null;
  return (
    <section aria-labelledby="planos" className="grid gap-4">
      <div>
        <h2 id="planos" className="text-xl font-bold tracking-tight">
          Planos de assinatura
        </h2>
        <p className="text-sm text-muted-foreground">Estude vários cursos por um valor só</p>
      </div>
      <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
        {offers.data.map((p) => (
          <PlanOfferCard key={p.id} plan={p} />
        ))}
      </div>
    </section>
  );
}

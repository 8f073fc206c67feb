// The turma being sold (issue 40): "Turma de março · começa em 10/03" under the order, or, when every
// turma on sale is full, "Turma esgotada" with the school's waiting list ("Entrar na lista de espera",
// then "Sair da lista"). The database picks the turma (checkout_quote) and takes its seat at the charge.
import { CalendarDays, CheckCircle2, Loader2, Users } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useJoinWaitlist, useLeaveWaitlist, useWaitlistEntry, type TurmaOffer as Offer } from '../api/hooks';

/** 'dd/mm' of an 'aaaa-mm-dd' day. */
function dayAndMonth(day: string) {
  const [, month, date] = day.split('-');
  return `${date}/${month}`;
}

export function TurmaOffer({ offer, courseId, userId }: { offer: Offer; courseId: string; userId: string }) {
  if (offer.state === 'open' && offer.turma) {
    const { name, starts_on, seats_left } = offer.turma;
    return (
      <section aria-label="Turma" data-testid="turma-offer" className="flex items-start gap-3 rounded-lg border border-sky-200 bg-sky-50 p-3 text-sm text-sky-950">
        <CalendarDays className="mt-0.5 size-5 shrink-0 text-sky-700" aria-hidden="true" />
        <div className="grid gap-0.5">
          <p className="font-semibold">
            {name} · começa em {dayAndMonth(starts_on)}
          </p>
          {seats_left !== null && seats_left <= 10 && <p className="text-sky-900/80">{seats_left === 1 ? 'Última vaga' : `Restam ${seats_left} vagas`}</p>}
        </div>
      </section>
    );
  }
  return (
    <section aria-label="Turma" data-testid="turma-offer" className="grid gap-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950">
      <div className="flex items-start gap-3">
        <Users className="mt-0.5 size-5 shrink-0 text-amber-700" aria-hidden="true" />
        <div className="grid gap-0.5">
          <p className="font-semibold">{offer.state === 'sold_out' ? 'Turma esgotada' : 'Inscrições fechadas'}</p>
          <p className="text-amber-900/80">
            {offer.state === 'sold_out'
              ? 'Todas as vagas desta turma foram preenchidas.'
              : 'Nenhuma turma deste curso está com inscrições abertas agora.'}
          </p>
        </div>
      </div>
      {offer.state === 'sold_out' && offer.waitlist_enabled && <Waitlist courseId={courseId} userId={userId} />}
    </section>
  );
}

function Waitlist({ courseId, userId }: { courseId: string; userId: string }) {
  const entry = useWaitlistEntry(courseId, userId, true);
  const join = useJoinWaitlist(courseId);
  const leave = useLeaveWaitlist(courseId, userId);
  const busy = entry.isPending || join.isPending || leave.isPending;
  if (entry.data)
    return (
      <div role="status" className="grid gap-2 rounded-md bg-white/70 p-3 text-green-900" data-testid="waitlist-joined">
        <p className="flex items-start gap-2 font-medium">
          <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-green-700" aria-hidden="true" />
          {/* The list is told at once by e-mail (turma_waitlist_open, docs/turmas.md "E-mails"): first to buy gets the seat. */}
          Você está na lista de espera deste curso. Avisamos por e-mail quando abrir uma vaga ou a próxima turma abrir as inscrições; a vaga é de quem
          garantir primeiro.
        </p>
        <Button type="button" variant="outline" size="sm" className="justify-self-start" disabled={busy} onClick={() => leave.mutate()}>
          {leave.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          Sair da lista
        </Button>
      </div>
    );
  return (
    <Button type="button" className="w-full" disabled={busy} onClick={() => join.mutate()}>
      {join.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
      Entrar na lista de espera
    </Button>
  );
}

// Back from the invoice (?pagamento=retorno), or with a charge still open: 'Aguardando confirmação do
// pagamento' while the course is locked, checking every 3 s (for up to 10 minutes) until
// asaas-webhook has enrolled the student; then a success toast and the unlocked page.
import { useEffect, useRef, useState } from 'react';
import { toast } from '@/platform/toast';
import { Clock, ExternalLink, Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useLatestPayment } from '../api/hooks';

const POLL_MS = 3000;
const GIVE_UP_MS = 10 * 60_000;

export function PaymentStatus({
  courseId,
  userId,
  hasAccess,
  returning,
  onPoll,
  onConfirmed,
}: {
  courseId: string;
  userId: string;
  hasAccess: boolean;
  /** The student just came back from the invoice page. */
  returning: boolean;
  /** Re-reads the course (its enrollment decides the access). */
  onPoll: () => void;
  /** Access arrived while waiting. */
  onConfirmed: () => void;
}) {
  const [gaveUp, setGaveUp] = useState(false);
  const latest = useLatestPayment(courseId, userId, { poll: !hasAccess && !gaveUp && returning, enabled: !hasAccess });
  const pending = latest.data?.status === 'PENDING';
  const waiting = !hasAccess && (returning || pending);
  const wasWaiting = useRef(false);

  useEffect(() => {
    if (!waiting || gaveUp) return;
    wasWaiting.current = true;
    const poll = setInterval(onPoll, POLL_MS);
    const stop = setTimeout(() => setGaveUp(true), GIVE_UP_MS);
    return () => {
      clearInterval(poll);
      clearTimeout(stop);
    };
  }, [waiting, gaveUp, onPoll]);

  // Confirmed while waiting here, or already before the page loaded: say so once, drop ?pagamento.
  useEffect(() => {
    if (hasAccess && (wasWaiting.current || returning)) {
      wasWaiting.current = false;
      toast.success('Pagamento confirmado!', { description: 'Seu acesso ao curso foi liberado.' });
      onConfirmed();
    }
  }, [hasAccess, returning, onConfirmed]);

  if (!waiting) return null;
  const invoice = pending ? latest.data?.invoice_url : null;
  return (
    <section role="status" className="flex flex-col gap-3 rounded-2xl border border-sky-200 bg-sky-50 p-5 text-sky-950 sm:flex-row sm:items-center">
      <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-sky-100 text-sky-700">
        {gaveUp ? <Clock className="size-5" aria-hidden="true" /> : <Loader2 className="size-5 animate-spin" aria-hidden="true" />}
      </span>
      <div className="min-w-0 flex-1">
        <h2 className="font-semibold">Aguardando confirmação do pagamento</h2>
        <p className="text-sm text-sky-900/80">
          {gaveUp
            ? 'Ainda não recebemos a confirmação. Você pode fechar esta página: o curso será liberado assim que o pagamento for confirmado.'
            : 'Assim que o pagamento for confirmado, o curso será liberado automaticamente nesta página.'}
        </p>
      </div>
      {invoice && (
        <Button asChild variant="outline">
          <a href={invoice}>
            <ExternalLink aria-hidden="true" />
            Ver fatura
          </a>
        </Button>
      )}
    </section>
  );
}

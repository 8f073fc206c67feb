// One checkout session of Recuperação as a card (as Matrículas' cards): who, what, how far they got, the
// value, when, the touches sent, and the staff's actions while it can still become a sale: "Chamar no
// WhatsApp" (wa.me with a ready message and the reopen link; no phone: says why), "Copiar link" (both
// recorded as a staff contact) and "Não contatar" (confirmed by the page).
import { BellOff, Bell, Link2, MessageCircle } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { buttonClasses } from '@/components/ui/button-variants';
import { copyText } from '@/platform/clipboard';
import { formatDateTime, formatMoney } from '@/utils/format';
import type { CheckoutSession } from '../api/queries';
import { reopenLink, whatsappLink } from '../lib/contact';
import { STAGE_LABEL, canContact, situationOf, touchesText } from '../lib/labels';

export function SessionCard({
  session: s,
  onContact,
  onDoNotContact,
}: {
  session: CheckoutSession;
  onContact: (channel: 'whatsapp' | 'link') => void;
  onDoNotContact: () => void;
}) {
  const situation = situationOf(s);
  const link = reopenLink(s, window.location.origin);
  const whatsapp = whatsappLink(s, link);
  const name = s.buyer_name || 'Conta removida';
  const open = canContact(s);
  return (
    <li className="grid min-w-0 grid-cols-1 content-start gap-3 rounded-xl border border-border bg-white p-4 shadow-xs">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 flex-1 basis-40">
          <h2 className="truncate font-semibold">{name}</h2>
          <p className="truncate text-sm text-muted-foreground">{s.buyer_email}</p>
        </div>
        <Badge variant={situation.variant}>{situation.label}</Badge>
      </div>
      <div className="min-w-0">
        <p className="truncate text-sm font-medium" title={s.offer.title}>
          {s.offer.title}
          {s.with_bump && <span className="font-normal text-muted-foreground"> + Leve também</span>}
        </p>
        <p className="text-sm text-muted-foreground">
          {/* Before the stage, not after the name: a long plan name is cut, and this must stay seen. */}
          {s.offer.kind === 'plan' && (
            <>
              <span className="font-medium text-foreground">Assinatura</span>
              {' · '}
            </>
          )}
          {STAGE_LABEL[s.stage] ?? s.stage}
          {s.coupon_code && (
            <>
              {' · Cupom '}
              <span className="font-mono">{s.coupon_code}</span>
            </>
          )}
        </p>
      </div>
      <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
        <dt className="text-muted-foreground">Valor</dt>
        <dd className="text-right font-medium tabular-nums">{formatMoney(s.paid_value ?? s.value)}</dd>
        <dt className="text-muted-foreground">Aberto em</dt>
        <dd className="text-right tabular-nums">{formatDateTime(s.opened_at)}</dd>
        {s.abandoned_at && (
          <>
            <dt className="text-muted-foreground">Abandonado em</dt>
            <dd className="text-right tabular-nums">{formatDateTime(s.abandoned_at)}</dd>
          </>
        )}
        <dt className="text-muted-foreground">Contatos</dt>
        <dd className="text-right">{touchesText(s)}</dd>
      </dl>
      {s.do_not_contact && (
        <p className="text-xs font-medium text-muted-foreground">Não contatar: a sequência de e-mails parou.</p>
      )}
      {open && (
        <div className="flex flex-wrap items-center gap-2">
          {whatsapp ? (
            <a
              href={whatsapp}
              target="_blank"
              rel="noreferrer"
              className={buttonClasses({ variant: 'outline', size: 'sm' })}
              aria-label={`Chamar ${name} no WhatsApp`}
              onClick={() => onContact('whatsapp')}
            >
              <MessageCircle aria-hidden="true" /> Chamar no WhatsApp
            </a>
          ) : (
            <span className="text-xs text-muted-foreground">
              {s.buyer_phone ? 'Telefone sem formato de WhatsApp' : 'Sem telefone no cadastro'}
            </span>
          )}
          <Button
            variant="outline"
            size="sm"
            aria-label={`Copiar link de retomada de ${name}`}
            onClick={() => {
              onContact('link');
              void copyText(link, 'Link copiado', link);
            }}
          >
            <Link2 aria-hidden="true" /> Copiar link
          </Button>
          <Button
            variant="ghost"
            size="sm"
            className="ml-auto"
            onClick={onDoNotContact}
            aria-label={s.do_not_contact ? `Voltar a contatar ${name}` : `Não contatar ${name}`}
          >
            {s.do_not_contact ? <Bell aria-hidden="true" /> : <BellOff aria-hidden="true" />}
            {s.do_not_contact ? 'Voltar a contatar' : 'Não contatar'}
          </Button>
        </div>
      )}
    </li>
  );
}

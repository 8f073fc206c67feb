// How Recuperação says a checkout session: how far the buyer got (stage) and how it ended (outcome),
// "Recuperado" when the sale came back after a touch (docs/recovery.md "Recovered").
import type { BadgeVariant } from '@/components/ui/badge';
import type { CheckoutSession, SessionOutcome, SessionStage } from '../api/queries';

export const STAGE_LABEL: Record<SessionStage, string> = {
  opened: 'Abriu o checkout',
  pix: 'PIX gerado',
  boleto: 'Boleto gerado',
  card: 'Cartão em análise',
  card_refused: 'Cartão recusado',
};

export const OUTCOME_LABEL: Record<SessionOutcome, string> = {
  open: 'Em andamento',
  abandoned: 'Abandonado',
  paid: 'Pago',
  closed: 'Encerrado',
};

const OUTCOME_VARIANT: Record<SessionOutcome, BadgeVariant> = {
  open: 'secondary',
  abandoned: 'warning',
  paid: 'success',
  closed: 'outline',
};

export function situationOf(s: Pick<CheckoutSession, 'outcome' | 'recovered'>): {
  label: string;
  variant: BadgeVariant;
} {
  if (s.recovered) return { label: 'Recuperado', variant: 'success' };
  return { label: OUTCOME_LABEL[s.outcome] ?? s.outcome, variant: OUTCOME_VARIANT[s.outcome] ?? 'secondary' };
}

/** "2 e-mails · 1 contato da equipe", or "Nenhum contato". */
export function touchesText(s: Pick<CheckoutSession, 'touches_sent' | 'staff_contacts'>): string {
  const parts = [];
  if (s.touches_sent > 0) parts.push(`${s.touches_sent} ${s.touches_sent === 1 ? 'e-mail' : 'e-mails'}`);
  if (s.staff_contacts > 0)
    parts.push(`${s.staff_contacts} ${s.staff_contacts === 1 ? 'contato da equipe' : 'contatos da equipe'}`);
  return parts.length ? parts.join(' · ') : 'Nenhum contato';
}

/** Staff can follow up a session that has not ended in a sale or an enrollment. */
export const canContact = (s: Pick<CheckoutSession, 'outcome'>) => s.outcome === 'open' || s.outcome === 'abandoned';

// How staff reach a buyer from Recuperação: the reopen link (the checkout as they left it: course, bump,
// coupon; or the plan) and a wa.me link (whatsappMessageUrl) with a ready pt-BR message naming the offer and that link.
import { whatsappMessageUrl } from '@/utils/format';
import type { CheckoutSession } from '../api/queries';

/** The link the recovery e-mail carries: /checkout/<course slug>?retomar=<session id>, a plan's /checkout/plano/<slug>?retomar=…. */
export function reopenLink(s: Pick<CheckoutSession, 'id' | 'offer'>, origin: string): string {
  return `${origin}/checkout/${s.offer.kind === 'plan' ? 'plano/' : ''}${encodeURIComponent(s.offer.slug)}?retomar=${encodeURIComponent(s.id)}`;
}

/** "a compra do curso X" or "a assinatura do plano X". */
export function offerPhrase(offer: CheckoutSession['offer']): string {
  // "do Plano Completo" as it is, "do plano Premium" otherwise (never "do plano Plano Completo").
  if (offer.kind === 'plan') return `a assinatura do ${/^plano\b/i.test(offer.title) ? offer.title : `plano ${offer.title}`}`;
  return `a compra do curso ${offer.title}`;
}

export function whatsappMessage(s: Pick<CheckoutSession, 'buyer_name' | 'offer'>, link: string): string {
  const first = s.buyer_name.trim().split(/\s+/)[0] || s.buyer_name;
  return `Olá, ${first}! Tudo bem? Vi que você começou ${offerPhrase(s.offer)} e não finalizou. Posso ajudar em algo? Para continuar de onde parou: ${link}`;
}

/** The wa.me link, or null when the phone cannot be a WhatsApp number. */
export function whatsappLink(s: Pick<CheckoutSession, 'buyer_name' | 'buyer_phone' | 'offer'>, link: string): string | null {
  return whatsappMessageUrl(s.buyer_phone, whatsappMessage(s, link));
}

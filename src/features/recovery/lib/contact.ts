// How staff reach a buyer from Recuperação: the reopen link (the checkout as they left it: course, bump,
// coupon) and a wa.me link (whatsappMessageUrl) with a ready pt-BR message naming the course and that link.
import { whatsappMessageUrl } from '@/utils/format';
import type { CheckoutSession } from '../api/queries';

/** The link the recovery e-mail carries: /checkout/<course slug>?retomar=<session id>. */
export function reopenLink(s: Pick<CheckoutSession, 'id' | 'course_slug'>, origin: string): string {
  return `${origin}/checkout/${encodeURIComponent(s.course_slug)}?retomar=${encodeURIComponent(s.id)}`;
}

export function whatsappMessage(s: Pick<CheckoutSession, 'buyer_name' | 'course_title'>, link: string): string {
  const first = s.buyer_name.trim().split(/\s+/)[0] || s.buyer_name;
  return `Olá, ${first}! Tudo bem? Vi que você começou a compra do curso ${s.course_title} e não finalizou. Posso ajudar em algo? Para continuar de onde parou: ${link}`;
}

/** The wa.me link, or null when the phone cannot be a WhatsApp number. */
export function whatsappLink(s: Pick<CheckoutSession, 'buyer_name' | 'buyer_phone' | 'course_title'>, link: string): string | null {
  return whatsappMessageUrl(s.buyer_phone, whatsappMessage(s, link));
}

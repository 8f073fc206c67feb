// How staff reach a buyer from Recuperação: the reopen link (the checkout as they left it: course, bump,
// coupon) and a wa.me link with a ready pt-BR message naming the course and that link. A Brazilian
// number without the country code (10 or 11 digits, as the profile keeps it) gets 55.
import { onlyDigits } from '@/utils/format';
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
export function whatsappLink(
  s: Pick<CheckoutSession, 'buyer_name' | 'buyer_phone' | 'course_title'>,
  link: string,
): string | null {
  const digits = onlyDigits(s.buyer_phone);
  const full =
    digits.length === 10 || digits.length === 11
      ? `55${digits}`
      : digits.startsWith('55') && (digits.length === 12 || digits.length === 13)
        ? digits
        : null;
  return full ? `https://wa.me/${full}?text=${encodeURIComponent(whatsappMessage(s, link))}` : null;
}

import { describe, expect, it, vi } from 'vitest';
import type { DbClient } from '@/platform/db';
import { fetchCheckoutQuote } from './queries';

// The database's guess limit of coupon codes answers checkout_quote with HTTP 429 and this error
// (tests/integration/product/security-coupons.test.ts); the page shows the price without the code and
// the limit's message where a code's refusal shows.
const LIMITED = { code: 'PT429', message: 'Muitas tentativas de cupom. Aguarde um minuto e tente de novo.', details: null, hint: null };
const QUOTE = { course: { id: 'c1', title: 'Excel do zero', price: '297.00' }, bump: null, with_bump: false, coupon: null, coupon_error: null, subtotal: '297.00', discount: 0, total: '297.00' };

function clientAnswering(answer: (args: { p_coupon_code: string | null }) => { data: unknown; error: unknown }) {
  const rpc = vi.fn((_fn: string, args: { p_coupon_code: string | null }) => Promise.resolve(answer(args)));
  return { client: { rpc } as unknown as DbClient, rpc };
}

describe('fetchCheckoutQuote', () => {
  it('past the guess limit: the quote without the code, with the limit’s message as the coupon’s refusal', async () => {
    const { client, rpc } = clientAnswering((args) => (args.p_coupon_code ? { data: null, error: LIMITED } : { data: QUOTE, error: null }));
    expect(await fetchCheckoutQuote(client, 'c1', 'BEMVINDO20', false)).toMatchObject({ coupon: null, coupon_error: LIMITED.message, discount: 0, total: 297 });
    expect(rpc.mock.calls.map(([, args]) => args)).toEqual([
      { p_course_id: 'c1', p_coupon_code: 'BEMVINDO20', p_with_bump: false },
      { p_course_id: 'c1', p_coupon_code: null, p_with_bump: false },
    ]);
  });

  it('any other failure is thrown', async () => {
    const { client } = clientAnswering(() => ({ data: null, error: { code: '42501', message: 'Entre na sua conta para comprar.', details: null, hint: null } }));
    await expect(fetchCheckoutQuote(client, 'c1', 'BEMVINDO20', false)).rejects.toMatchObject({ code: '42501' });
  });
});

// Issue 41: checkout sessions along the real checkout path, in real Deno: create-asaas-charge and the fake Asaas,
// asaas-webhook's confirmation. The session follows the charge (PIX, a refused card), the payment by the webhook
// marks it paid (not merely closed by the enrollment written in the same transaction), and the reopen link offers
// the still-payable PIX again, or a fresh one once it expired.
import { describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { ANON_KEY, useBackend } from '../harness.ts';
import { COURSE, SCHOOL } from '../rls/seed.ts';

const backend = useBackend({ fakeAsaas: true, functionSecrets: { SITE_URL: 'http://localhost:5999' } });
const fake = backend.asaas;
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => backend.sql<T>(text, params);

interface Buyer { id: string; email: string; name: string; client: SupabaseClient }
async function newBuyer(): Promise<Buyer> {
  const a = await backend.signedInAccount({ prefix: 'checkout', name: 'Joana Checkout', school: SCHOOL.demo });
  return { id: a.id, email: a.email, name: 'Joana Checkout', client: a.client };
}
async function chargeCall(who: Buyer, body: Record<string, unknown>) {
  const { data } = await who.client.auth.getSession();
  const res = await fetch(`${backend.url}/functions/v1/create-asaas-charge`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', apikey: ANON_KEY, Authorization: `Bearer ${data.session!.access_token}` },
    body: JSON.stringify({ course_id: COURSE.marketing, customer: { name: who.name, email: who.email, cpfCnpj: '529.982.247-25', phone: '(11) 98888-7777' }, ...body }),
  });
  return { status: res.status, body: (await res.json()) as { invoiceUrl?: string; payment_id?: string } };
}
const session = async (id: string) =>
  (await sql<{ outcome: string; stage: string; coupon_code: string | null; value: string; payment_id: string | null; paid_value: string | null }>(
    'select outcome, stage, coupon_code, value, payment_id, paid_value from public.checkout_sessions where id = $1', [id]))[0]!;

describe('a checkout session along the real checkout', () => {
  it('opened with BEMVINDO20, a PIX generated: the session holds the charge; Asaas\'s confirmation marks it paid with the value', async () => {
    const buyer = await newBuyer();
    const { data: id } = await buyer.client.rpc('open_checkout_session', { p_course_id: COURSE.marketing, p_coupon_code: 'BEMVINDO20', p_with_bump: false });
    const charge = await chargeCall(buyer, { billing_type: 'PIX', coupon_code: 'BEMVINDO20' });
    expect(charge.status).toBe(200);
    const row = await session(id as string);
    expect(row).toMatchObject({ outcome: 'open', stage: 'pix', coupon_code: 'BEMVINDO20', payment_id: charge.body.payment_id });
    const value = (await sql<{ value: string }>('select value from public.payments where id = $1', [charge.body.payment_id]))[0]!.value;
    expect(row.value).toBe(value);

    // The reopen link while the PIX is payable: the same charge again.
    const resumed = (await buyer.client.rpc('resume_checkout_session', { p_session_id: id })).data as { pending_charge: { payment_id: string } | null };
    expect(resumed.pending_charge?.payment_id).toBe(charge.body.payment_id);
    // Past its end: none, so the page makes a fresh PIX.
    await sql(`update public.checkout_sessions set expires_at = now() - interval '1 minute' where id = $1`, [id]);
    expect(((await buyer.client.rpc('resume_checkout_session', { p_session_id: id })).data as { pending_charge: unknown }).pending_charge).toBeNull();

    const paid = await fetch(`${fake.url}/i/${charge.body.invoiceUrl!.split('/i/')[1]}/pay`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    await fake.idle();
    expect(await session(id as string)).toMatchObject({ outcome: 'paid', paid_value: value });
    // Paid by the webhook, which enrolled in the same transaction: paid, not closed.
    expect((await sql('select 1 from public.enrollments where user_id = $1 and course_id = $2 and status = $3', [buyer.id, COURSE.marketing, 'ACTIVE'])).length).toBe(1);
  });

  it('a refused card leaves the session at card_refused, open until the hour passes', async () => {
    const buyer = await newBuyer();
    const { data: id } = await buyer.client.rpc('open_checkout_session', { p_course_id: COURSE.marketing });
    const charge = await chargeCall(buyer, {
      billing_type: 'CREDIT_CARD',
      creditCard: { holderName: 'JOANA CHECKOUT', number: '5184019740373151', expiryMonth: '12', expiryYear: String(new Date().getFullYear() + 2), ccv: '123' },
      creditCardHolderInfo: { name: 'Joana Checkout', email: buyer.email, cpfCnpj: '529.982.247-25', postalCode: '01310-100', addressNumber: '100', phone: '(11) 98888-7777' },
    });
    expect(charge.status).toBeGreaterThanOrEqual(400);
    expect(await session(id as string)).toMatchObject({ outcome: 'open', stage: 'card_refused' });
  });
});

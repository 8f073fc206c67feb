// Issue 43, the split at Asaas, in real Deno against the fake Asaas: create-asaas-charge sends the attributed
// affiliate's and the co-producer's shares as the charge's `split` (values from the database, equal to the
// commission computed here independently, coupon included); paying on the invoice page confirms the ledger and
// the split's PAYMENT_SPLIT_DONE makes it available; a refund reverses it. Attacks: a forged split event (a
// wrong token, or one school's token for another school), a split to a wallet Asaas does not know.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { ANON_KEY, useBackend } from '../harness.ts';
import { COURSE, SCHOOL, USER } from '../rls/seed.ts';
import { DEMO_ASAAS_ACCOUNTS } from '../../../scripts/fake-asaas/demo-accounts.ts';

const [DEMO, RIVAL] = DEMO_ASAAS_ACCOUNTS;
const CUSTOMER = { name: 'Aluna Teste', email: 'aluna@escola-demo.com.br', cpfCnpj: '529.982.247-25', phone: '(11) 98888-7777' };
const AFFILIATE_WALLET = '0b763922-aa88-4cbe-a567-e3fe8511fa06';
const COPRODUCER_WALLET = '48548710-9baa-4ec1-a11f-9010193527c6';

const backend = useBackend({ fakeAsaas: { eventDelayMs: 10 }, functionSecrets: { SITE_URL: 'http://localhost:5999' } });
const fake = backend.asaas;
const service = backend.service();
const aluno = backend.signedIn('aluno');
const aluna = backend.signedIn('aluna');

async function callAs(client: SupabaseClient, fn: string, body: unknown) {
  const { data } = await client.auth.getSession();
  const res = await fetch(`${backend.url}/functions/v1/${fn}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', apikey: ANON_KEY, Authorization: `Bearer ${data.session!.access_token}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function ledger(paymentId: string) {
  return backend.sql<{ kind: string; wallet_id: string; value: string; status: string; split_status: string | null; provider_split_id: string | null }>(
    `select kind, wallet_id, value::text, status, split_status, provider_split_id from public.commissions where payment_id = $1 order by kind`,
    [paymentId],
  );
}

/** aluna buys Marketing by PIX through create-asaas-charge; the charge as the fake Asaas received it. */
async function buy(coupon: string | null = null) {
  const res = await callAs(aluna, 'create-asaas-charge', { course_id: COURSE.marketing, billing_type: 'PIX', customer: CUSTOMER, coupon_code: coupon });
  expect(res.status).toBe(200);
  const paymentId = res.body.payment_id as string;
  const [row] = await backend.sql<{ provider_payment_id: string }>(`select provider_payment_id from public.payments where id = $1`, [paymentId]);
  const request = fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/payments')).at(-1)!;
  return { paymentId, asaasId: row!.provider_payment_id, sent: request.body as Record<string, unknown> };
}

/** An event posted to asaas-webhook as Asaas would, with `token`. */
async function postEvent(token: string, school: string, event: Record<string, unknown>) {
  const res = await fetch(`${backend.url}/functions/v1/asaas-webhook?school=${school}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'asaas-access-token': token },
    body: JSON.stringify({ id: `evt_${randomUUID()}`, dateCreated: '2026-11-28 10:00:00', ...event }),
  });
  return { status: res.status, body: await res.text() };
}

beforeAll(async () => {
  // From a school without the seed's demo program (the demo's affiliate and co-producer on Marketing).
  await backend.sql(`delete from public.affiliates where school_id = $1`, [SCHOOL.demo]);
  await backend.sql(`delete from public.affiliate_programs where course_id = $1`, [COURSE.marketing]);
  await backend.sql(`delete from public.course_coproducers where course_id = $1`, [COURSE.marketing]);
  await backend.sql(`insert into public.affiliate_programs (course_id, school_id, enabled, commission_percent, approval) values ($1, $2, true, 30, 'automatic')`, [COURSE.marketing, SCHOOL.demo]);
  await backend.sql(`insert into public.course_coproducers (course_id, school_id, name, wallet_id, percent) values ($1, $2, 'Prof. Coprodutora', $3, 10)`, [COURSE.marketing, SCHOOL.demo, COPRODUCER_WALLET]);
  const applied = await aluno.rpc('apply_as_affiliate', { p_course_id: COURSE.marketing });
  expect(applied.data).toMatchObject({ status: 'approved' });
  expect((await service.rpc('set_affiliate_wallet', { p_user_id: USER.aluno, p_wallet_id: AFFILIATE_WALLET })).error).toBeNull();
  const code = (applied.data as { code: string }).code;
  expect((await aluna.rpc('attach_affiliate_attribution', { p_code: code, p_clicked_at: new Date().toISOString() })).data).toBe(true);
});

describe('the split at Asaas', () => {
  it('the charge carries the affiliate\'s and the co-producer\'s shares of the amount paid after the coupon; paid, then settled, then refunded', async () => {
    const [course] = await backend.sql<{ price: string }>(`select price::text from public.courses where id = $1`, [COURSE.marketing]);
    const paidCents = Math.round(Number(course!.price) * 100 * 0.8); // BEMVINDO20
    const share = (pct: number) => Math.floor((paidCents * pct) / 100) / 100;

    const sale = await buy('BEMVINDO20');
    expect(sale.sent.value).toBe(paidCents / 100);
    expect(sale.sent.split).toEqual([
      { walletId: AFFILIATE_WALLET, fixedValue: share(30) },
      { walletId: COPRODUCER_WALLET, fixedValue: share(10) },
    ]);
    const pending = await ledger(sale.paymentId);
    expect(pending.map((r) => [r.kind, Number(r.value), r.status])).toEqual([
      ['affiliate', share(30), 'pending'],
      ['coproducer', share(10), 'pending'],
    ]);
    expect(pending.every((r) => r.provider_split_id)).toBe(true);

    // 'Simular pagamento': PAYMENT_CONFIRMED, then each split's PAYMENT_SPLIT_DONE.
    expect((await fetch(`${fake.url}/i/${sale.asaasId}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    expect((await ledger(sale.paymentId)).map((r) => [r.status, r.split_status])).toEqual([
      ['available', 'DONE'],
      ['available', 'DONE'],
    ]);
    const panel = await aluno.rpc('affiliate_panel', {});
    const commissions = (panel.data as { courses: { sales: number; commissions: Record<string, number> }[] }).courses[0]!;
    expect(commissions.sales).toBe(1);
    expect(Number(commissions.commissions.available)).toBe(share(30));

    const refund = await fetch(`${fake.apiUrl}/payments/${sale.asaasId}/refund`, { method: 'POST', headers: { access_token: DEMO.apiKey, 'Content-Type': 'application/json' }, body: '{}' });
    expect(refund.status).toBe(200);
    await fake.idle();
    expect((await ledger(sale.paymentId)).map((r) => r.status)).toEqual(['reversed', 'reversed']);
    expect((fake.payment(sale.asaasId)!.split as { status: string }[]).map((s) => s.status)).toEqual(['REFUNDED', 'REFUNDED']);
  });

  it('attack: a split event with a wrong token, or another school\'s token, changes nothing; control: Asaas\'s own cancels the share', async () => {
    const sale = await buy();
    const before = await ledger(sale.paymentId);
    const affiliateSplit = before.find((r) => r.kind === 'affiliate')!.provider_split_id!;
    const event = { event: 'PAYMENT_SPLIT_CANCELLED', payment: { id: sale.asaasId, split: [{ id: affiliateSplit, walletId: AFFILIATE_WALLET, status: 'CANCELLED' }] } };

    expect((await postEvent('whtok_forjado', SCHOOL.demo, event)).status).toBe(401);
    expect((await postEvent(RIVAL.webhookToken, SCHOOL.demo, event)).status).toBe(401);
    const rivalSchool = await postEvent(RIVAL.webhookToken, SCHOOL.rival, event);
    expect(rivalSchool.body).toContain('mismatch');
    expect(await ledger(sale.paymentId)).toEqual(before);

    const real = await postEvent(DEMO.webhookToken, SCHOOL.demo, event);
    expect(real.status).toBe(200);
    expect((await ledger(sale.paymentId)).map((r) => [r.kind, r.status, r.split_status])).toEqual([
      ['affiliate', 'reversed', 'CANCELLED'],
      ['coproducer', 'pending', 'PENDING'],
    ]);
  });

  it('a split to a wallet Asaas does not know is refused at the charge, which fails and leaves no share owed; control: once the wallet exists it goes through', async () => {
    const unknown = '7e2f3a4b-1c5d-4e6f-8a9b-0c1d2e3f4a5b';
    await backend.sql(`insert into public.course_coproducers (course_id, school_id, name, wallet_id, percent) values ($1, $2, 'Desconhecida', $3, 5)`, [COURSE.marketing, SCHOOL.demo, unknown]);
    const refused = await callAs(aluna, 'create-asaas-charge', { course_id: COURSE.marketing, billing_type: 'PIX', customer: CUSTOMER });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const [failed] = await backend.sql<{ id: string; status: string }>(`select id, status from public.payments where user_id = $1 order by created_at desc limit 1`, [USER.aluna]);
    expect(failed!.status).toBe('FAILED');
    expect(new Set((await ledger(failed!.id)).map((r) => r.status))).toEqual(new Set(['reversed']));

    fake.addWallet(unknown);
    const ok = await buy();
    expect((ok.sent.split as { walletId: string }[]).map((s) => s.walletId)).toContain(unknown);
    await backend.sql(`delete from public.course_coproducers where wallet_id = $1`, [unknown]);
  });

  it('attack: an affiliate sets a wallet that is not their Asaas account\'s, or with a key Asaas refuses; a student who is no affiliate sets one; control: their own wallet with their own key', async () => {
    const ownWallet = '7d4c1e2a-5b3f-4e8d-9a6c-2f1b0e9d8c7a';
    const wallet = async () => (await backend.sql<{ wallet_id: string }>(`select wallet_id from public.affiliates where user_id = $1`, [USER.aluno]))[0]!.wallet_id;
    const before = await wallet();
    const notTheirs = await callAs(aluno, 'affiliate-wallet', { wallet_id: COPRODUCER_WALLET, asaas_api_key: '$aact_SEGREDO_afiliado_teste' });
    expect(notTheirs).toMatchObject({ status: 400, body: { field: 'wallet_id' } });
    const badKey = await callAs(aluno, 'affiliate-wallet', { wallet_id: ownWallet, asaas_api_key: '$aact_inventada' });
    expect(badKey).toMatchObject({ status: 400, body: { field: 'asaas_api_key' } });
    const notAffiliate = await callAs(aluna, 'affiliate-wallet', { wallet_id: ownWallet, asaas_api_key: '$aact_SEGREDO_afiliado_teste' });
    expect(notAffiliate.status).toBe(404);
    expect(await wallet()).toBe(before);
    expect(await backend.sql(`select 1 from public.affiliates where user_id = $1`, [USER.aluna])).toEqual([]);

    const ok = await callAs(aluno, 'affiliate-wallet', { wallet_id: ownWallet.toUpperCase(), asaas_api_key: '$aact_SEGREDO_afiliado_teste' });
    expect(ok).toMatchObject({ status: 200, body: { wallet_id: ownWallet } });
    expect(await wallet()).toBe(ownWallet);
    // The key was used once and kept nowhere.
    const everything = await backend.sql<{ t: string }>(`select string_agg(row_to_json(a)::text, '') as t from public.affiliates a`);
    expect(everything[0]!.t).not.toContain('SEGREDO');
  });
});

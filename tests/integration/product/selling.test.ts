// Issue 24, selling more, in real Deno against the fake Asaas: the database prices every checkout
// (course, coupon, order bump) and create-asaas-charge charges exactly that; a coupon's use is reserved
// with the payment under the coupon's lock, counts when the payment confirms and is given back by a
// refund; the bump is one charge that enrolls in both courses and a refund pauses both. And what an
// attacker tries: forged totals and event values, coupon uses written by hand, another school's coupon.
import { describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { ANON_KEY, useBackend } from '../harness.ts';
import { COURSE, EMAIL, SCHOOL } from '../rls/seed.ts';
import { DEMO_ASAAS_ACCOUNTS } from '../../../scripts/fake-asaas/demo-accounts.ts';

const [DEMO] = DEMO_ASAAS_ACCOUNTS;
const CUSTOMER = { name: 'Comprador Teste', email: 'comprador@exemplo.com.br', cpfCnpj: '529.982.247-25', phone: '(11) 98888-7777' };
const PASSWORD = 'senha-venda-123';

const backend = useBackend({
  fakeAsaas: true,
  functionSecrets: { SITE_URL: 'http://localhost:5999' },
});
const fake = backend.asaas;
const service = backend.service();

async function must<T>(p: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(JSON.stringify(error));
  return data;
}
const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();

/** A new student of the demo school, signed in. */
async function buyer() {
  const email = `venda.${tag().toLowerCase()}@exemplo.com.br`;
  const created = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { name: 'Comprador', school_id: SCHOOL.demo } });
  if (created.error) throw created.error;
  return { id: created.data.user!.id, client: await backend.signIn(email, PASSWORD) };
}

async function coupon(values: Record<string, unknown>, school: string = SCHOOL.demo) {
  const code = `TESTE${tag()}`;
  const row = (await must(service.from('coupons').insert({ school_id: school, code, kind: 'percent', amount: 20, ...values }).select('id, code').single())) as { id: string; code: string };
  return row;
}

async function charge(client: SupabaseClient, body: Record<string, unknown>) {
  const { data: session } = await client.auth.getSession();
  const res = await fetch(`${backend.url}/functions/v1/create-asaas-charge`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${session.session?.access_token ?? ''}`, apikey: ANON_KEY },
    body: JSON.stringify({ billing_type: 'PIX', customer: CUSTOMER, ...body }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function event(asaasId: string, paymentId: string, name: string, value?: number) {
  const p = fake.payment(asaasId)!;
  const res = await fetch(`${backend.url}/functions/v1/asaas-webhook?school=${SCHOOL.demo}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'asaas-access-token': DEMO.webhookToken },
    body: JSON.stringify({ id: `evt_${tag()}`, event: name, payment: { object: 'payment', id: asaasId, customer: p.customer, externalReference: paymentId, status: 'RECEIVED', value: value ?? p.value } }),
  });
  return JSON.parse(await res.text()) as { outcome: string };
}

const asaasIdOf = (invoiceUrl: unknown) => String(invoiceUrl).split('/i/')[1]!;
const quote = async (client: SupabaseClient, course: string, code: string | null = null, bump = false) =>
  (await must(client.rpc('checkout_quote', { p_course_id: course, p_coupon_code: code, p_with_bump: bump }))) as {
    total: number; discount: number; subtotal: number; coupon_error: string | null; bump: null | { course_id: string; price: number };
  };
const uses = async (couponId: string) =>
  ((await must(service.from('coupon_uses').select('status').eq('coupon_id', couponId))) as { status: string }[]).map((u) => u.status).sort();
const enrollment = async (userId: string, courseId: string) =>
  ((await service.from('enrollments').select('status').eq('user_id', userId).eq('course_id', courseId).maybeSingle()).data as { status: string } | null)?.status ?? null;

describe('coupons', () => {
  it('20% off the R$ 297,00 course: quoted and charged R$ 237,60; the use counts on confirmation, and a refund gives it back', async () => {
    const c = await coupon({ max_uses: 1 });
    const b = await buyer();
    expect(await quote(b.client, COURSE.marketing, c.code.toLowerCase())).toMatchObject({ subtotal: 297, discount: 59.4, total: 237.6, coupon_error: null });

    const res = await charge(b.client, { course_id: COURSE.marketing, coupon_code: c.code.toLowerCase(), value: 237.6 });
    expect(res.status).toBe(200);
    const asaasId = asaasIdOf(res.body.invoiceUrl);
    expect(fake.payment(asaasId)).toMatchObject({ value: 237.6, billingType: 'PIX' });
    const paymentId = String(res.body.payment_id);
    expect(await uses(c.id)).toEqual(['reserved']);
    // While it is reserved, nobody else takes the only use.
    const other = await buyer();
    expect((await quote(other.client, COURSE.marketing, c.code)).coupon_error).toBe('Este cupom esgotou.');

    expect((await event(asaasId, paymentId, 'PAYMENT_CONFIRMED')).outcome).toBe('enrolled');
    expect(await uses(c.id)).toEqual(['used']);
    expect(await enrollment(b.id, COURSE.marketing)).toBe('ACTIVE');

    expect((await event(asaasId, paymentId, 'PAYMENT_REFUNDED')).outcome).toBe('paused');
    expect(await uses(c.id)).toEqual(['released']);
    expect(await enrollment(b.id, COURSE.marketing)).toBe('PAUSED');
    expect((await quote(other.client, COURSE.marketing, c.code)).coupon_error).toBeNull();
    const [row] = (await must(service.from('payments').select('value, discount, coupon_code, refunded_at').eq('id', paymentId))) as Record<string, unknown>[];
    expect(row).toMatchObject({ value: 237.6, discount: 59.4, coupon_code: c.code });
    expect(row!.refunded_at).not.toBeNull();
  });

  it('20 concurrent checkouts for the last use: one charge at the discount, 19 refused with the reason', async () => {
    const c = await coupon({ max_uses: 3 });
    // Two uses already taken (reserved by pending payments).
    for (let i = 0; i < 2; i++) {
      const b = await buyer();
      expect((await charge(b.client, { course_id: COURSE.marketing, coupon_code: c.code })).status).toBe(200);
    }
    const buyers = await Promise.all(Array.from({ length: 20 }, () => buyer()));
    const before = fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/payments')).length;
    const results = await Promise.all(buyers.map((b) => charge(b.client, { course_id: COURSE.marketing, coupon_code: c.code, value: 237.6 })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400).map((r) => r.body.error ?? r.body.message)).toEqual(Array(19).fill('Este cupom esgotou.'));
    const charges = fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/payments')).slice(before);
    expect(charges.map((r) => (r.body as { value: number }).value)).toEqual([237.6]);
    expect(await uses(c.id)).toEqual(['reserved', 'reserved', 'reserved']);
  });

  it('per buyer limit, validity, course list and activity each give their reason and change nothing', async () => {
    const b = await buyer();
    const perBuyer = await coupon({ max_uses_per_buyer: 1 });
    expect((await charge(b.client, { course_id: COURSE.marketing, coupon_code: perBuyer.code })).status).toBe(200);
    // The same course again, or another course, replaces that pending charge (issue 37: one pending
    // reservation per coupon); a paid use is a use.
    expect((await charge(b.client, { course_id: COURSE.marketing, coupon_code: perBuyer.code })).status).toBe(200);
    const excel = await charge(b.client, { course_id: COURSE.excel, coupon_code: perBuyer.code });
    expect(excel.status).toBe(200);
    expect(await uses(perBuyer.id)).toEqual(['released', 'released', 'reserved']);
    expect((await event(asaasIdOf(excel.body.invoiceUrl), String(excel.body.payment_id), 'PAYMENT_CONFIRMED')).outcome).toBe('enrolled');
    const again = await charge(b.client, { course_id: COURSE.marketing, coupon_code: perBuyer.code });
    expect(again).toMatchObject({ status: 400 });
    expect(JSON.stringify(again.body)).toContain('Você já usou este cupom o máximo de vezes permitido.');

    const expired = await coupon({ valid_from: '2026-01-01T00:00:00Z', valid_until: '2026-02-01T00:00:00Z' });
    const future = await coupon({ valid_from: '2999-01-01T00:00:00Z' });
    const inactive = await coupon({ is_active: false });
    const excelOnly = await coupon({ all_courses: false });
    await must(service.from('coupon_courses').insert({ coupon_id: excelOnly.id, course_id: COURSE.excel }).select('coupon_id'));
    const rival = await coupon({}, SCHOOL.rival);
    const fixedTooBig = await coupon({ kind: 'fixed', amount: 295 });
    // A code the school has not published (expired, not yet valid, inactive) is not found (issue 37).
    const reasons: [string, string][] = [
      [expired.code, 'Cupom não encontrado.'],
      [future.code, 'Cupom não encontrado.'],
      [inactive.code, 'Cupom não encontrado.'],
      [excelOnly.code, 'Este cupom não vale para este curso.'],
      [rival.code, 'Cupom não encontrado.'],
      ['NAOEXISTE', 'Cupom não encontrado.'],
      [fixedTooBig.code, 'Com este cupom o valor fica abaixo do mínimo de R$ 5,00.'],
    ];
    const other = await buyer();
    for (const [code, reason] of reasons) {
      expect(await quote(other.client, COURSE.marketing, code), code).toMatchObject({ coupon_error: reason, total: 297, discount: 0 });
      const res = await charge(other.client, { course_id: COURSE.marketing, coupon_code: code });
      expect(res.status, code).toBe(400);
      expect(JSON.stringify(res.body)).toContain(reason);
    }
    expect(await must(service.from('payments').select('id').eq('user_id', other.id))).toEqual([]);
    const fixed = await coupon({ kind: 'fixed', amount: 50 });
    expect(await quote(other.client, COURSE.marketing, fixed.code)).toMatchObject({ discount: 50, total: 247 });
  });
});

describe('forgeries', () => {
  it('a forged total, a forged event value, or a coupon use written by hand change nothing', async () => {
    const c = await coupon({ max_uses: 5 });
    const b = await buyer();
    // The browser claims the full price was shown… or a smaller one: refused, no payment, no use.
    for (const value of [297, 1]) {
      const res = await charge(b.client, { course_id: COURSE.marketing, coupon_code: c.code, value });
      expect(res.status).toBe(409);
    }
    expect(await must(service.from('payments').select('id').eq('user_id', b.id))).toEqual([]);
    expect(await uses(c.id)).toEqual([]);

    const res = await charge(b.client, { course_id: COURSE.marketing, coupon_code: c.code });
    const paymentId = String(res.body.payment_id);
    const asaasId = asaasIdOf(res.body.invoiceUrl);
    // An event with the full price for the discounted charge: a mismatch, not an enrollment.
    expect((await event(asaasId, paymentId, 'PAYMENT_CONFIRMED', 297)).outcome).toBe('mismatch');
    expect(await enrollment(b.id, COURSE.marketing)).toBeNull();
    expect(await uses(c.id)).toEqual(['reserved']);

    // The student writes coupon uses, payments or items, or reads coupons: nothing.
    expect((await b.client.from('coupon_uses').insert({ coupon_id: c.id, payment_id: paymentId, user_id: b.id, school_id: SCHOOL.demo, discount: 297 })).error).not.toBeNull();
    await b.client.from('coupon_uses').update({ status: 'released' }).eq('payment_id', paymentId);
    expect((await b.client.from('payment_items').insert({ payment_id: paymentId, school_id: SCHOOL.demo, kind: 'bump', course_id: COURSE.excel, title: 'x', list_price: 5, value: 5 })).error).not.toBeNull();
    expect((await b.client.rpc('create_checkout_payment', { p_user_id: b.id, p_course_id: COURSE.marketing, p_coupon_code: c.code, p_with_bump: false, p_billing_type: 'PIX', p_installment_count: 1, p_environment: 'sandbox', p_integration_id: null })).error).not.toBeNull();
    expect(await must(b.client.from('coupons').select('id'))).toEqual([]);
    expect(await uses(c.id)).toEqual(['reserved']);
    expect(await must(service.from('payment_items').select('kind').eq('payment_id', paymentId))).toEqual([{ kind: 'course' }]);
    // Staff of another school see none of it.
    const rival = await backend.signIn(EMAIL.adminRival);
    expect(await must(rival.from('coupons').select('id').eq('id', c.id))).toEqual([]);
    expect((await rival.rpc('admin_coupons', { p_school_id: SCHOOL.demo })).error).not.toBeNull();
  });
});

describe('order bump', () => {
  it('one PIX for both courses; confirmation enrolls in both; a refund pauses both; not offered to who has it', async () => {
    await must(service.from('course_bumps').upsert({ course_id: COURSE.marketing, bump_course_id: COURSE.excel, price: 97 }).select('course_id'));
    const b = await buyer();
    const q = await quote(b.client, COURSE.marketing, null, true);
    expect(q).toMatchObject({ subtotal: 394, total: 394, bump: { course_id: COURSE.excel, price: 97 } });
    const c = await coupon({});
    // The coupon discounts the course on sale, not the bump: 297 − 59,40 + 97.
    expect(await quote(b.client, COURSE.marketing, c.code, true)).toMatchObject({ discount: 59.4, total: 334.6 });

    const res = await charge(b.client, { course_id: COURSE.marketing, with_bump: true, coupon_code: c.code, value: 334.6 });
    expect(res.status).toBe(200);
    const asaasId = asaasIdOf(res.body.invoiceUrl);
    expect(fake.payment(asaasId)).toMatchObject({ value: 334.6 });
    const paymentId = String(res.body.payment_id);
    const items = (await must(service.from('payment_items').select('kind, course_id, list_price, discount, value').eq('payment_id', paymentId).order('kind', { ascending: false }))) as Record<string, unknown>[];
    expect(items).toEqual([
      { kind: 'course', course_id: COURSE.marketing, list_price: 297, discount: 59.4, value: 237.6 },
      { kind: 'bump', course_id: COURSE.excel, list_price: 97, discount: 0, value: 97 },
    ]);
    expect((await event(asaasId, paymentId, 'PAYMENT_RECEIVED')).outcome).toBe('enrolled');
    expect([await enrollment(b.id, COURSE.marketing), await enrollment(b.id, COURSE.excel)]).toEqual(['ACTIVE', 'ACTIVE']);
    expect((await event(asaasId, paymentId, 'PAYMENT_REFUNDED')).outcome).toBe('paused');
    expect([await enrollment(b.id, COURSE.marketing), await enrollment(b.id, COURSE.excel)]).toEqual(['PAUSED', 'PAUSED']);

    // Someone enrolled in Excel is not offered Excel, and cannot force it.
    const enrolled = await buyer();
    await must(service.from('enrollments').insert({ user_id: enrolled.id, course_id: COURSE.excel, status: 'ACTIVE' }).select('id'));
    expect((await quote(enrolled.client, COURSE.marketing)).bump).toBeNull();
    const forced = await charge(enrolled.client, { course_id: COURSE.marketing, with_bump: true });
    expect(forced.status).toBe(400);
    expect(JSON.stringify(forced.body)).toContain('Esta oferta não está disponível.');
    await must(service.from('course_bumps').delete().eq('course_id', COURSE.marketing).select('course_id'));
  });

  it('a bump must be another course of the same school', async () => {
    const same = await service.from('course_bumps').insert({ course_id: COURSE.marketing, bump_course_id: COURSE.marketing, price: 10 });
    expect(same.error?.message).toMatch(/course_bumps_other_course/);
    const cross = await service.from('course_bumps').insert({ course_id: COURSE.marketing, bump_course_id: COURSE.rival, price: 10 });
    expect(cross.error?.message).toBe('O curso oferecido precisa ser da mesma escola.');
  });
});

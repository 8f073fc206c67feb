// Issue 40: coupons and plans limited to a turma (20261128004201, docs/turmas.md). A coupon with a turma
// discounts only a sale in that turma: the quote says so and the charge (create-asaas-charge in real
// Deno, against the fake Asaas) refuses it, beside the control where the turma on sale is the coupon's.
// A plan with a turma enrolls its subscribers in that turma, in its course. Another school's staff
// can tie neither a coupon nor a plan of theirs to this school's turma, nor change this school's.
import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { ANON_KEY, useBackend } from '../harness.ts';
import { COURSE, SCHOOL } from '../rls/seed.ts';

const DAY = 24 * 60 * 60 * 1000;
const CUSTOMER = { name: 'Comprador Teste', email: 'comprador@exemplo.com.br', cpfCnpj: '529.982.247-25', phone: '(11) 98888-7777' };
const PASSWORD = 'senha-turma-123';

const backend = useBackend({ fakeAsaas: true, functionSecrets: { SITE_URL: 'http://localhost:5999' } });
const service = backend.service();
const staff = backend.signedIn('adminDemo');
const rivalStaff = backend.signedIn('adminRival');

async function must<T>(p: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(JSON.stringify(error));
  return data;
}
const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const spDate = (days: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() + days * DAY));
const insertRow = async (table: string, row: Record<string, unknown>) => ((await must(service.from(table).insert(row).select('id').single())) as { id: string }).id;

async function buyer() {
  const email = `turma.cupom.${tag()}@exemplo.com.br`;
  const created = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { name: 'Comprador', school_id: SCHOOL.demo } });
  if (created.error) throw created.error;
  return { id: created.data.user!.id, client: await backend.signIn(email, PASSWORD) };
}

async function charge(client: SupabaseClient, courseId: string, couponCode: string) {
  const { data: session } = await client.auth.getSession();
  const res = await fetch(`${backend.url}/functions/v1/create-asaas-charge`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${session.session?.access_token ?? ''}`, apikey: ANON_KEY },
    body: JSON.stringify({ billing_type: 'PIX', customer: CUSTOMER, course_id: courseId, coupon_code: couponCode }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

type Quote = { coupon: { code: string } | null; coupon_error: string | null; discount: number; total: number };
const quote = async (client: SupabaseClient, courseId: string, code: string) =>
  (await must(client.rpc('checkout_quote', { p_course_id: courseId, p_coupon_code: code }))) as Quote;

/** A course for sale (R$ 100,00) with 'Março' on sale now and 'Abril' (not open yet), and a 20% coupon per turma. */
let c: { course: string; march: string; april: string; marchCode: string; aprilCode: string; aprilCoupon: string };
beforeAll(async () => {
  const course = await insertRow('courses', { school_id: SCHOOL.demo, title: 'Curso com cupom de turma', slug: `turma-cupom-${tag()}`, status: 'PUBLISHED', price: 100 });
  const moduleId = await insertRow('modules', { course_id: course, title: 'Módulo', order_index: 0 });
  await insertRow('lessons', { module_id: moduleId, course_id: course, title: 'Aula' });
  const march = await insertRow('turmas', { course_id: course, name: 'Março', starts_on: spDate(5) });
  const april = await insertRow('turmas', { course_id: course, name: 'Abril', starts_on: spDate(35), enroll_from: new Date(Date.now() + 20 * DAY).toISOString() });
  const marchCode = `MARCO${tag()}`.slice(0, 20).toUpperCase();
  const aprilCode = `ABRIL${tag()}`.slice(0, 20).toUpperCase();
  await must(staff.from('coupons').insert({ school_id: SCHOOL.demo, code: marchCode, kind: 'percent', amount: 20, turma_id: march }).select('id'));
  const aprilCoupon = ((await must(staff.from('coupons').insert({ school_id: SCHOOL.demo, code: aprilCode, kind: 'percent', amount: 20, turma_id: april }).select('id').single())) as { id: string }).id;
  c = { course, march, april, marchCode, aprilCode, aprilCoupon };
}, 60_000);

describe('a coupon limited to a turma', () => {
  it("applies to a sale in its turma (control): 20% off, and the charge records the coupon and the turma's seat", async () => {
    const b = await buyer();
    expect(await quote(b.client, c.course, c.marchCode)).toMatchObject({ coupon: { code: c.marchCode }, coupon_error: null, discount: 20, total: 80 });
    const res = await charge(b.client, c.course, c.marchCode);
    expect(res.status).toBe(200);
    const [payment] = (await must(service.from('payments').select('value, coupon_code, payment_items(turma_id)').eq('id', String(res.body.payment_id)))) as Record<string, unknown>[];
    expect(payment).toEqual({ value: 80, coupon_code: c.marchCode, payment_items: [{ turma_id: c.march }] });
  });

  it("a buyer cannot use another turma's coupon: the quote says so at full price, the charge is refused and nothing is recorded", async () => {
    const b = await buyer();
    expect(await quote(b.client, c.course, c.aprilCode)).toMatchObject({ coupon: null, coupon_error: 'Este cupom não vale para esta turma.', discount: 0, total: 100 });
    const res = await charge(b.client, c.course, c.aprilCode);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.error).toBe('Este cupom não vale para esta turma.');
    expect(await must(service.from('payments').select('id').eq('user_id', b.id))).toEqual([]);
    expect(await must(service.from('coupon_uses').select('payment_id').eq('coupon_id', c.aprilCoupon))).toEqual([]);
  });
});

describe('a plan limited to a turma', () => {
  it("enrolls a subscriber into the plan's turma in its course, and the plan's other course without one", async () => {
    const b = await buyer();
    const planId = ((await must(staff.from('plans').insert({ school_id: SCHOOL.demo, slug: `plano-turma-${tag()}`, name: 'Plano da turma', cycle: 'MONTHLY', price: 49.9 }).select('id').single())) as { id: string }).id;
    await must(staff.from('plan_courses').insert([{ plan_id: planId, course_id: c.course }, { plan_id: planId, course_id: COURSE.marketing }]).select('plan_id'));
    await must(staff.from('plans').update({ turma_id: c.march }).eq('id', planId).select('id'));
    const sub = (await must(service.rpc('create_plan_subscription', { p_user_id: b.id, p_plan_id: planId, p_billing_type: 'CREDIT_CARD', p_environment: 'sandbox', p_integration_id: null }))) as { id: string };
    const asaasId = `sub_${tag()}`;
    await must(service.from('subscriptions').update({ provider_subscription_id: asaasId, provider_customer_id: 'cus_turma' }).eq('id', sub.id).select('id'));
    const outcome = await must(service.rpc('apply_subscription_event', {
      p_school_id: SCHOOL.demo, p_event_id: `evt_${tag()}`, p_event: 'PAYMENT_CONFIRMED', p_provider_subscription_id: asaasId,
      p_provider_payment_id: `pay_${tag()}`, p_value: 49.9, p_customer: 'cus_turma', p_due_date: spDate(0), p_billing_type: 'CREDIT_CARD',
      p_invoice_url: 'https://sandbox.asaas.com/i/x',
    }));
    expect(outcome).toBe('enrolled');
    const rows = (await must(service.from('enrollments').select('course_id, status, turma_id').eq('user_id', b.id).order('course_id'))) as Record<string, unknown>[];
    expect(rows).toEqual(
      [
        { course_id: c.course, status: 'ACTIVE', turma_id: c.march },
        { course_id: COURSE.marketing, status: 'ACTIVE', turma_id: null },
      ].sort((x, y) => String(x.course_id).localeCompare(String(y.course_id))),
    );
  });
});

describe("another school's staff", () => {
  it("can tie neither their coupon nor their plan to this school's turma, nor change this school's coupon (checked in the database, beside this school's staff)", async () => {
    const code = `PIRATA${tag()}`.slice(0, 20).toUpperCase();
    const pirate = await rivalStaff.from('coupons').insert({ school_id: SCHOOL.rival, code, kind: 'percent', amount: 90, turma_id: c.march }).select('id');
    expect(pirate.error?.code).toBe('23514');
    expect(await must(service.from('coupons').select('id').eq('code', code))).toEqual([]);

    const rivalPlan = await insertRow('plans', { school_id: SCHOOL.rival, slug: `plano-rival-${tag()}`, name: 'Plano rival', cycle: 'MONTHLY', price: 20 });
    expect((await rivalStaff.from('plans').update({ turma_id: c.march }).eq('id', rivalPlan).select('id')).error?.code).toBe('23514');
    expect(await must(service.from('plans').select('turma_id').eq('id', rivalPlan))).toEqual([{ turma_id: null }]);

    // This school's April coupon moved to March by the rival: no row is theirs to change.
    expect(await must(rivalStaff.from('coupons').update({ turma_id: null }).eq('id', c.aprilCoupon).select('id'))).toEqual([]);
    expect(await must(service.from('coupons').select('turma_id').eq('id', c.aprilCoupon))).toEqual([{ turma_id: c.april }]);
    // Control: this school's staff do it.
    expect(await must(staff.from('coupons').update({ turma_id: c.march }).eq('id', c.aprilCoupon).select('turma_id'))).toEqual([{ turma_id: c.march }]);
    await must(staff.from('coupons').update({ turma_id: c.april }).eq('id', c.aprilCoupon).select('id'));
  });
});

// Issue 24, subscriptions, as the database keeps them: each paid invoice keeps the plan's courses
// open and extends the paid period; past it by more than the school's grace days the daily check
// pauses them; paying restores them; a cancelled subscription keeps access until the end of the paid
// period. Events whose value or customer do not match change nothing; a course bought outright is
// never paused with the plan. Events are applied as asaas-webhook applies them (service role).
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { COURSE, EMAIL, SCHOOL } from '../rls/seed.ts';

const PASSWORD = 'senha-plano-123';
const DAY = 24 * 3600_000;
const backend = useBackend();
const service = backend.service();

async function must<T>(p: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(JSON.stringify(error));
  return data;
}
const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function student() {
  const email = `plano.${tag()}@exemplo.com.br`;
  const created = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { name: 'Assinante', school_id: SCHOOL.demo } });
  if (created.error) throw created.error;
  return { id: created.data.user!.id, client: await backend.signIn(email, PASSWORD) };
}

async function plan(courses: string[] = [COURSE.excel, COURSE.marketing], extra: Record<string, unknown> = {}) {
  const p = (await must(service.from('plans').insert({ school_id: SCHOOL.demo, slug: `plano-${tag()}`, name: 'Plano Tudo', cycle: 'MONTHLY', price: 49.9, ...extra }).select('id').single())) as { id: string };
  if (courses.length) await must(service.from('plan_courses').insert(courses.map((course_id) => ({ plan_id: p.id, course_id }))).select('plan_id'));
  return p.id;
}

/** A subscription as create-asaas-subscription leaves it: created in the database, then Asaas's ids. */
async function subscribe(userId: string, planId: string, billing = 'CREDIT_CARD') {
  const sub = (await must(service.rpc('create_plan_subscription', { p_user_id: userId, p_plan_id: planId, p_billing_type: billing, p_environment: 'sandbox', p_integration_id: null }))) as { id: string };
  const asaasId = `sub_${tag()}`;
  const customer = `cus_${tag()}`;
  await must(service.from('subscriptions').update({ provider_subscription_id: asaasId, provider_customer_id: customer }).eq('id', sub.id).select('id'));
  return { id: sub.id, asaasId, customer };
}

let n = 0;
async function invoiceEvent(sub: { asaasId: string; customer: string }, event: string, invoice: string, dueDate: string, value = 49.9, customer = sub.customer) {
  return (await must(service.rpc('apply_subscription_event', {
    p_school_id: SCHOOL.demo, p_event_id: `evt_${tag()}_${n++}`, p_event: event, p_provider_subscription_id: sub.asaasId,
    p_provider_payment_id: invoice, p_value: value, p_customer: customer, p_due_date: dueDate, p_billing_type: 'CREDIT_CARD',
    p_invoice_url: `https://sandbox.asaas.com/i/${invoice}`,
  }))) as string;
}
const subRow = async (id: string) => (await must(service.from('subscriptions').select('status, paid_until').eq('id', id).single())) as { status: string; paid_until: string | null };
const access = async (userId: string) =>
  Object.fromEntries(((await must(service.from('enrollments').select('course_id, status').eq('user_id', userId))) as { course_id: string; status: string }[]).map((e) => [e.course_id, e.status]));
const check = async (at: Date) => (await must(service.rpc('check_subscription_access', { p_now: at.toISOString() }))) as number;
const isoDate = (d: Date) => d.toISOString().slice(0, 10);

describe('a monthly plan', () => {
  it('paid → access; overdue past the grace days → paused; paid again → restored; cancelled → until the end of the period', async () => {
    const s = await student();
    const planId = await plan();
    const sub = await subscribe(s.id, planId);
    expect(await access(s.id)).toEqual({});

    const today = new Date();
    expect(await invoiceEvent(sub, 'PAYMENT_CONFIRMED', `pay_${tag()}`, isoDate(today))).toBe('enrolled');
    expect(await access(s.id)).toEqual({ [COURSE.excel]: 'ACTIVE', [COURSE.marketing]: 'ACTIVE' });
    const first = await subRow(sub.id);
    expect(first.status).toBe('ACTIVE');
    // Paid for a month from the invoice's due date.
    const paidUntil = new Date(first.paid_until!);
    expect(paidUntil.getTime() - today.getTime()).toBeGreaterThan(27 * DAY);
    expect(paidUntil.getTime() - today.getTime()).toBeLessThan(32 * DAY);

    // The next invoice is created and goes unpaid: within the 5 grace days nothing changes…
    const next = `pay_${tag()}`;
    expect(await invoiceEvent(sub, 'PAYMENT_CREATED', next, isoDate(paidUntil))).toBe('recorded');
    expect(await invoiceEvent(sub, 'PAYMENT_OVERDUE', next, isoDate(paidUntil))).toBe('ignored');
    expect(await check(new Date(paidUntil.getTime() + 4 * DAY))).toBe(0);
    expect((await subRow(sub.id)).status).toBe('ACTIVE');
    // …after them, access pauses.
    expect(await check(new Date(paidUntil.getTime() + 6 * DAY))).toBe(1);
    expect((await subRow(sub.id)).status).toBe('OVERDUE');
    expect(await access(s.id)).toEqual({ [COURSE.excel]: 'PAUSED', [COURSE.marketing]: 'PAUSED' });

    // Paying it restores access and extends the period.
    expect(await invoiceEvent(sub, 'PAYMENT_RECEIVED', next, isoDate(paidUntil))).toBe('enrolled');
    expect(await access(s.id)).toEqual({ [COURSE.excel]: 'ACTIVE', [COURSE.marketing]: 'ACTIVE' });
    const second = await subRow(sub.id);
    expect(second.status).toBe('ACTIVE');
    expect(new Date(second.paid_until!).getTime()).toBeGreaterThan(paidUntil.getTime() + 27 * DAY);

    // The invoices are payments of the subscription, each one 'plan' item, in Vendas.
    const invoices = (await must(service.from('payments').select('status, value, subscription_id, payment_items(kind, title, value)').eq('subscription_id', sub.id).order('due_date'))) as Record<string, unknown>[];
    expect(invoices).toEqual([
      { status: 'CONFIRMED', value: 49.9, subscription_id: sub.id, payment_items: [{ kind: 'plan', title: 'Plano Tudo', value: 49.9 }] },
      { status: 'RECEIVED', value: 49.9, subscription_id: sub.id, payment_items: [{ kind: 'plan', title: 'Plano Tudo', value: 49.9 }] },
    ]);

    // Cancelled: access until the end of the paid period, then it expires.
    expect(await must(service.rpc('cancel_plan_subscription', { p_subscription_id: sub.id, p_by: s.id }))).toMatchObject({ status: 'CANCELLED' });
    expect(await check(new Date())).toBe(0);
    expect(await access(s.id)).toEqual({ [COURSE.excel]: 'ACTIVE', [COURSE.marketing]: 'ACTIVE' });
    expect(await check(new Date(new Date(second.paid_until!).getTime() + 1000))).toBe(1);
    expect((await subRow(sub.id)).status).toBe('EXPIRED');
    expect(await access(s.id)).toEqual({ [COURSE.excel]: 'PAUSED', [COURSE.marketing]: 'PAUSED' });
    await expect(must(service.rpc('cancel_plan_subscription', { p_subscription_id: sub.id, p_by: s.id }))).rejects.toThrow('Esta assinatura já foi cancelada.');
  });

  it('a course the student bought outright is never paused with the plan', async () => {
    const s = await student();
    await must(service.from('enrollments').insert({ user_id: s.id, course_id: COURSE.marketing, status: 'ACTIVE' }).select('id'));
    const sub = await subscribe(s.id, await plan());
    await invoiceEvent(sub, 'PAYMENT_CONFIRMED', `pay_${tag()}`, isoDate(new Date()));
    const [own] = (await must(service.from('enrollments').select('subscription_id').eq('user_id', s.id).eq('course_id', COURSE.marketing))) as { subscription_id: string | null }[];
    expect(own!.subscription_id).toBeNull();
    expect(await check(new Date(Date.now() + 60 * DAY))).toBe(1);
    expect(await access(s.id)).toEqual({ [COURSE.excel]: 'PAUSED', [COURSE.marketing]: 'ACTIVE' });
  });
});

describe('refusals and forgeries', () => {
  it('a forged value or customer, an unknown subscription, and a second subscription change nothing', async () => {
    const s = await student();
    const planId = await plan();
    const sub = await subscribe(s.id, planId);
    expect(await invoiceEvent(sub, 'PAYMENT_CONFIRMED', `pay_${tag()}`, isoDate(new Date()), 4.99)).toBe('mismatch');
    expect(await invoiceEvent(sub, 'PAYMENT_CONFIRMED', `pay_${tag()}`, isoDate(new Date()), 49.9, 'cus_outro')).toBe('mismatch');
    expect(await invoiceEvent({ asaasId: 'sub_inexistente', customer: sub.customer }, 'PAYMENT_CONFIRMED', `pay_${tag()}`, isoDate(new Date()))).toBe('unknown_subscription');
    expect(await access(s.id)).toEqual({});
    expect((await subRow(sub.id)).status).toBe('PENDING');
    await expect(subscribe(s.id, planId)).rejects.toThrow('Você já tem uma assinatura deste plano.');
    await expect(subscribe(s.id, await plan([]))).rejects.toThrow('Este plano ainda não tem cursos.');
    await expect(subscribe(s.id, await plan(undefined, { billing_types: ['PIX'] }))).rejects.toThrow('Forma de pagamento não aceita neste plano.');
    await expect(subscribe(s.id, await plan(undefined, { is_active: false }))).rejects.toThrow('Plano não encontrado.');
  });

  it('a student calls none of the service functions, sees only their own subscription, and only active plans', async () => {
    const a = await student();
    const b = await student();
    const planId = await plan();
    const sub = await subscribe(a.id, planId);
    const calls = [
      b.client.rpc('create_plan_subscription', { p_user_id: b.id, p_plan_id: planId, p_billing_type: 'PIX', p_environment: 'sandbox', p_integration_id: null }),
      b.client.rpc('apply_subscription_event', { p_school_id: SCHOOL.demo, p_event_id: 'x', p_event: 'PAYMENT_CONFIRMED', p_provider_subscription_id: sub.asaasId, p_provider_payment_id: 'pay_x', p_value: 49.9, p_customer: sub.customer, p_due_date: null, p_billing_type: 'PIX', p_invoice_url: null }),
      b.client.rpc('check_subscription_access', { p_now: new Date(Date.now() + 400 * DAY).toISOString() }),
      b.client.rpc('cancel_plan_subscription', { p_subscription_id: sub.id, p_by: b.id }),
      b.client.rpc('admin_plans', { p_school_id: SCHOOL.demo }),
    ];
    for (const r of await Promise.all(calls)) expect(r.error).not.toBeNull();
    expect(await must(b.client.from('subscriptions').select('id'))).toEqual([]);
    expect(await must(a.client.from('subscriptions').select('id'))).toEqual([{ id: sub.id }]);
    expect((await b.client.from('subscriptions').update({ status: 'ACTIVE' }).eq('id', sub.id)).error).not.toBeNull();
    expect((await subRow(sub.id)).status).toBe('PENDING');
    const inactive = await plan(undefined, { is_active: false });
    const seen = ((await must(b.client.from('plans').select('id'))) as { id: string }[]).map((p) => p.id);
    expect(seen).toContain(planId);
    expect(seen).not.toContain(inactive);
    // Another school's student sees none of this school's plans; its staff nothing at all.
    const rivalStudent = await backend.signIn(EMAIL.alunoRival);
    expect(await must(rivalStudent.from('plans').select('id').eq('id', planId))).toEqual([]);
    const rivalAdmin = await backend.signIn(EMAIL.adminRival);
    expect(await must(rivalAdmin.from('subscriptions').select('id').eq('id', sub.id))).toEqual([]);
    expect((await rivalAdmin.from('plans').update({ price: 5 }).eq('id', planId).select('id')).data).toEqual([]);
  });
});

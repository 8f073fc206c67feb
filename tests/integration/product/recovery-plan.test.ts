// Issue 41: a plan's checkout is recorded and followed up like a course's (docs/recovery.md "Plans"). The plan's
// page opens the session (open_plan_checkout_session), create_plan_subscription and Asaas's events (as
// asaas-webhook applies them, service role) move it; the sequence's e-mail goes through the real send-emails
// to the local inbox; the reopen link continues the same session; Recuperação lists it with the plan's name.
import { describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { ANON_KEY, SERVICE_ROLE_KEY, useBackend } from '../harness.ts';
import { inbox } from '../auth-helpers.ts';
import { COURSE, SCHOOL } from '../rls/seed.ts';

const SITE = 'http://localhost:5999';
const backend = useBackend({ functionSecrets: { SITE_URL: SITE } });
const service = backend.service();
const admin = backend.signedIn('adminDemo');
const aluna = backend.signedIn('aluna');
const alunoRival = backend.signedIn('alunoRival');
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => backend.sql<T>(text, params);
const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const minutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

async function must<T>(p: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(JSON.stringify(error));
  return data;
}
interface Buyer { id: string; email: string; client: SupabaseClient }
const newBuyer = async (): Promise<Buyer> => backend.signedInAccount({ prefix: 'plano', name: 'Renata Assinante', school: SCHOOL.demo });
async function newPlan(name = 'Plano Completo') {
  const slug = `plano-${tag()}`;
  const plan = (await must(service.from('plans').insert({ school_id: SCHOOL.demo, slug, name, cycle: 'MONTHLY', price: 49.9 }).select('id').single())) as { id: string };
  await must(service.from('plan_courses').insert({ plan_id: plan.id, course_id: COURSE.marketing }).select('plan_id'));
  return { id: plan.id, slug };
}
const openPlan = (b: Buyer, planId: string) => must(b.client.rpc('open_plan_checkout_session', { p_plan_id: planId })) as Promise<string | null>;
const run = (at: string) => must(service.rpc('run_checkout_recovery', { p_now: at }));
async function drain() {
  const res = await fetch(`${backend.url}/functions/v1/send-emails`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', apikey: ANON_KEY, Authorization: `Bearer ${SERVICE_ROLE_KEY}` },
    body: '{}',
  });
  expect(res.status).toBe(200);
}
/** create-asaas-subscription's two writes: our subscription, then Asaas's ids. */
async function subscribe(b: Buyer, planId: string, billing: string) {
  const sub = (await must(service.rpc('create_plan_subscription', { p_user_id: b.id, p_plan_id: planId, p_billing_type: billing, p_environment: 'sandbox', p_integration_id: null }))) as { id: string };
  const asaasId = `sub_${tag()}`;
  const customer = `cus_${tag()}`;
  await must(service.from('subscriptions').update({ provider_subscription_id: asaasId, provider_customer_id: customer }).eq('id', sub.id).select('id'));
  const event = (event: string, invoiceId: string, dueDate: string) =>
    must(service.rpc('apply_subscription_event', {
      p_school_id: SCHOOL.demo, p_event_id: `evt_${tag()}`, p_event: event, p_provider_subscription_id: asaasId,
      p_provider_payment_id: invoiceId, p_value: 49.9, p_customer: customer, p_due_date: dueDate, p_billing_type: billing,
      p_invoice_url: `https://sandbox.asaas.com/i/${invoiceId}`,
    }));
  return { id: sub.id, event };
}
const sessionsOf = (b: Buyer, planId: string) =>
  sql<{ id: string; outcome: string; stage: string; value: string; payment_id: string | null; expires_at: unknown; touches_sent: number; paid_value: string | null; recovery_coupon_id: string | null; abandoned_at: unknown }>(
    'select * from public.checkout_sessions where user_id = $1 and plan_id = $2 order by opened_at', [b.id, planId]);
const today = () => new Date().toLocaleDateString('en-CA', { timeZone: 'America/Sao_Paulo' });

describe('a plan\'s checkout session', () => {
  it('opened, a PIX subscription generated and left unpaid: abandoned, e-mailed with the plan and its price; the link reopens the same session; paying marks it paid and recovered', async () => {
    const plan = await newPlan();
    const buyer = await newBuyer();
    const id = (await openPlan(buyer, plan.id))!;
    expect(await openPlan(buyer, plan.id)).toBe(id);
    expect((await sessionsOf(buyer, plan.id))[0]).toMatchObject({ outcome: 'open', stage: 'opened', value: '49.90' });

    const sub = await subscribe(buyer, plan.id, 'PIX');
    expect((await sessionsOf(buyer, plan.id))[0]).toMatchObject({ id, outcome: 'open', stage: 'pix' });
    const invoice = `pay_${tag()}`;
    await sub.event('PAYMENT_CREATED', invoice, today());
    const [withCharge] = await sessionsOf(buyer, plan.id);
    expect(withCharge!.payment_id).not.toBeNull();
    expect(withCharge!.expires_at).not.toBeNull();

    // The invoice's day ends unpaid: abandoned; the first e-mail after its delay.
    const end = new Date(withCharge!.expires_at as string).getTime();
    await run(new Date(end + 60_000).toISOString());
    expect((await sessionsOf(buyer, plan.id))[0]!.outcome).toBe('abandoned');
    await run(new Date(end + 62 * 60_000).toISOString());
    await drain();
    const [mail, ...more] = (await inbox(backend, buyer.email)).filter((m) => m.subject.includes('Plano Completo') && !m.subject.startsWith('Pagamento'));
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Sua assinatura está esperando: Plano Completo');
    expect(mail!.text).toContain('Você começou a assinatura do Plano Completo e não terminou.');
    expect(mail!.text).toMatch(/Valor: R\$\s49,90 por mês/);
    expect(mail!.links).toContain(`${SITE}/checkout/plano/${plan.slug}?retomar=${id}`);
    await sql(`update public.checkout_session_touches set created_at = now() - interval '1 hour' where session_id = $1`, [id]);

    // The link: the same session, open again, the plan named.
    const resumed = (await must(buyer.client.rpc('resume_checkout_session', { p_session_id: id }))) as Record<string, unknown>;
    expect(resumed).toMatchObject({ plan_id: plan.id, plan_slug: plan.slug, course_id: null, coupon_code: null, with_bump: false, outcome: 'open', billing_type: 'PIX' });

    // Asaas's confirmation of the invoice (paid late): one session, paid, recovered.
    await sub.event('PAYMENT_RECEIVED', invoice, today());
    const rows = await sessionsOf(buyer, plan.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id, outcome: 'paid', paid_value: '49.90', touches_sent: 1 });
    const list = (await must(admin.rpc('admin_checkout_sessions', { p_school_id: SCHOOL.demo, p_stage: 'paid', p_limit: 500 }))) as Record<string, unknown>[];
    expect(list.filter((r) => r.buyer_id === buyer.id)).toEqual([
      expect.objectContaining({ id, plan_id: plan.id, plan_name: 'Plano Completo', plan_slug: plan.slug, course_id: null, course_title: null, recovered: true }),
    ]);
    // A course filter leaves the plans out.
    const courseOnly = (await must(admin.rpc('admin_checkout_sessions', { p_school_id: SCHOOL.demo, p_course_id: COURSE.marketing, p_limit: 500 }))) as { id: string }[];
    expect(courseOnly.some((r) => r.id === id)).toBe(false);
    // A run later writes nothing more.
    await run(minutes(3 * 24 * 60));
    expect((await sessionsOf(buyer, plan.id))[0]!.touches_sent).toBe(1);
  });

  it('a refused card is card_refused; a subscription bought by any path closes the session; a plan\'s last touch carries no coupon (a course\'s does)', async () => {
    const plan = await newPlan('Premium');
    const refused = await newBuyer();
    await openPlan(refused, plan.id);
    const sub = await subscribe(refused, plan.id, 'CREDIT_CARD');
    expect((await sessionsOf(refused, plan.id))[0]!.stage).toBe('card');
    await must(service.from('subscriptions').update({ status: 'FAILED' }).eq('id', sub.id).select('id'));
    expect((await sessionsOf(refused, plan.id))[0]).toMatchObject({ outcome: 'open', stage: 'card_refused' });

    // Abandoned, then subscribed again with a card charged at once: the abandoned session is paid too.
    await run(minutes(61));
    expect((await sessionsOf(refused, plan.id))[0]!.outcome).toBe('abandoned');
    const again = await subscribe(refused, plan.id, 'CREDIT_CARD');
    await again.event('PAYMENT_CONFIRMED', `pay_${tag()}`, today());
    const after = await sessionsOf(refused, plan.id);
    expect(after[0]).toMatchObject({ outcome: 'paid', paid_value: '49.90' });
    expect(after.filter((s) => s.outcome === 'open' || s.outcome === 'abandoned')).toEqual([]);

    // Given by another path (no payment in the transaction): closed; the buyer with the plan opens none.
    const given = await newBuyer();
    const givenId = (await openPlan(given, plan.id))!;
    const g = await subscribe(given, plan.id, 'PIX');
    await sql(`update public.subscriptions set status = 'ACTIVE', paid_until = now() + interval '1 month' where id = $1`, [g.id]);
    expect((await sessionsOf(given, plan.id))[0]).toMatchObject({ id: givenId, outcome: 'closed' });
    expect(await openPlan(given, plan.id)).toBeNull();

    // The school gives a recovery coupon on the last touch: not for a plan (coupons discount courses only).
    await must(admin.from('school_recovery_settings').upsert({ school_id: SCHOOL.demo, enabled: true, delays_minutes: [60], coupon_percent: 10 }, { onConflict: 'school_id' }).select('school_id'));
    try {
      const planBuyer = await newBuyer();
      await openPlan(planBuyer, plan.id);
      const courseBuyer = await newBuyer();
      await must(courseBuyer.client.rpc('open_checkout_session', { p_course_id: COURSE.marketing, p_coupon_code: null, p_with_bump: false }));
      await run(minutes(61));
      await run(minutes(122));
      expect((await sessionsOf(planBuyer, plan.id))[0]).toMatchObject({ touches_sent: 1, recovery_coupon_id: null });
      const course = (await sql<{ touches_sent: number; recovery_coupon_id: string | null }>(
        'select touches_sent, recovery_coupon_id from public.checkout_sessions where user_id = $1', [courseBuyer.id]))[0]!;
      expect(course.touches_sent).toBe(1);
      expect(course.recovery_coupon_id).not.toBeNull();
    } finally {
      await must(admin.from('school_recovery_settings').upsert({ school_id: SCHOOL.demo, delays_minutes: [60, 1440, 4320], coupon_percent: null }, { onConflict: 'school_id' }).select('school_id'));
    }
  });

  it('a buyer of another school opens no session of the plan, and another buyer\'s plan link reopens nothing; the control buyer\'s do', async () => {
    const plan = await newPlan();
    const buyer = await newBuyer();
    const id = (await openPlan(buyer, plan.id))!;
    await run(minutes(61));

    const rival = await alunoRival.rpc('open_plan_checkout_session', { p_plan_id: plan.id });
    expect(rival.error?.message).toBe('Plano não encontrado.');
    const stolen = await aluna.rpc('resume_checkout_session', { p_session_id: id });
    expect(stolen.error?.message).toBe('Link de checkout não encontrado.');
    expect(await sql('select user_id from public.checkout_sessions where plan_id = $1', [plan.id])).toEqual([{ user_id: buyer.id }]);
    expect((await sessionsOf(buyer, plan.id))[0]).toMatchObject({ outcome: 'abandoned' });

    expect(await openPlan(await newBuyer(), plan.id)).not.toBeNull();
    expect(await must(buyer.client.rpc('resume_checkout_session', { p_session_id: id }))).toMatchObject({ outcome: 'open' });
  });
});

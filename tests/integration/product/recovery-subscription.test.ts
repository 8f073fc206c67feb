// Issue 41: the first invoice of a new subscription sends "Pagamento pendente", as a course's charge does
// (it was missing). Events are applied as asaas-webhook applies them (service role); the message goes through
// the real send-emails to the local inbox. Later invoices and a card (charged at once) send none.
import { describe, expect, it } from 'vitest';
import { ANON_KEY, SERVICE_ROLE_KEY, useBackend } from '../harness.ts';
import { inbox } from '../auth-helpers.ts';
import { COURSE, SCHOOL } from '../rls/seed.ts';

const backend = useBackend({ functionSecrets: { SITE_URL: 'http://localhost:5999' } });
const service = backend.service();
const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function must<T>(p: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(JSON.stringify(error));
  return data;
}
async function subscriber(billing: string) {
  const account = await backend.createAccount({ prefix: 'assinante', name: 'Renata Assinante', school: SCHOOL.demo });
  const plan = (await must(service.from('plans').insert({ school_id: SCHOOL.demo, slug: `plano-${tag()}`, name: 'Plano Completo', cycle: 'MONTHLY', price: 49.9 }).select('id').single())) as { id: string };
  await must(service.from('plan_courses').insert({ plan_id: plan.id, course_id: COURSE.marketing }).select('plan_id'));
  const sub = (await must(service.rpc('create_plan_subscription', { p_user_id: account.id, p_plan_id: plan.id, p_billing_type: billing, p_environment: 'sandbox', p_integration_id: null }))) as { id: string };
  const asaasId = `sub_${tag()}`;
  const customer = `cus_${tag()}`;
  await must(service.from('subscriptions').update({ provider_subscription_id: asaasId, provider_customer_id: customer }).eq('id', sub.id).select('id'));
  const invoice = async (invoiceId: string, dueDate: string) =>
    must(service.rpc('apply_subscription_event', {
      p_school_id: SCHOOL.demo, p_event_id: `evt_${tag()}`, p_event: 'PAYMENT_CREATED', p_provider_subscription_id: asaasId,
      p_provider_payment_id: invoiceId, p_value: 49.9, p_customer: customer, p_due_date: dueDate, p_billing_type: billing,
      p_invoice_url: `https://sandbox.asaas.com/i/${invoiceId}`,
    }));
  return { ...account, invoice };
}
async function drain() {
  const res = await fetch(`${backend.url}/functions/v1/send-emails`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', apikey: ANON_KEY, Authorization: `Bearer ${SERVICE_ROLE_KEY}` },
    body: '{}',
  });
  expect(res.status).toBe(200);
}

describe('Pagamento pendente for a new subscription', () => {
  it('the first invoice of a PIX subscription sends it once, with the plan\'s words and the invoice; the next invoice and a card subscription send none', async () => {
    const pix = await subscriber('PIX');
    await pix.invoice(`pay_${tag()}`, '2026-12-05');
    await drain();
    const [mail, ...more] = (await inbox(backend, pix.email)).filter((m) => m.subject.startsWith('Pagamento pendente'));
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Pagamento pendente: Plano Completo');
    expect(mail!.text).toContain('Sua assinatura do Plano Completo está aguardando o pagamento pelo PIX.');
    expect(mail!.links.some((l) => l.startsWith('https://sandbox.asaas.com/i/pay_'))).toBe(true);

    await pix.invoice(`pay_${tag()}`, '2027-01-05');
    const card = await subscriber('CREDIT_CARD');
    await card.invoice(`pay_${tag()}`, '2026-12-05');
    await drain();
    expect((await inbox(backend, pix.email)).filter((m) => m.subject.startsWith('Pagamento pendente'))).toHaveLength(1);
    expect((await inbox(backend, card.email)).filter((m) => m.subject.startsWith('Pagamento pendente'))).toHaveLength(0);
  });
});

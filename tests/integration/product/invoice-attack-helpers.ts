// Sale, job and webhook helpers for the invoice attack tests (issue 42's outside attack), as
// invoices.test.ts makes them: a PIX sale paid on the fake Asaas, one run of issue-invoices, an invoice webhook.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { SERVICE_ROLE_KEY, type Backend } from '../harness.ts';
import { COURSE, SCHOOL, USER } from '../rls/seed.ts';
import { DEMO_ASAAS_ACCOUNTS } from '../../../scripts/fake-asaas/demo-accounts.ts';

export { COURSE, SCHOOL, USER };
export const [DEMO, RIVAL] = DEMO_ASAAS_ACCOUNTS;
export const INTEGRATION: Record<string, string> = { [SCHOOL.demo]: 'ee000000-0000-4000-8000-000000000001', [SCHOOL.rival]: 'ee000000-0000-4000-8000-000000000021' };
export const DAY = 86_400_000;

/** The columns of public.invoices these tests read. */
export interface InvoiceRow {
  id: string;
  status: string;
  provider_invoice_id: string | null;
  error_message: string | null;
  iss_value: number | null;
  authorized_at: string;
  created_at: string;
  cancel_requested_at: string | null;
}
export const afterGuarantee = () => new Date(Date.now() + 8 * DAY);

export function helpers(backend: Backend) {
  const fake = () => backend.asaas;
  const service = () => backend.service();
  async function asaas(key: string, path: string, body: unknown) {
    const res = await fetch(`${fake().apiUrl}${path}`, { method: 'POST', headers: { access_token: key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return (await res.json()) as Record<string, unknown>;
  }
  return {
    sql: <T = Record<string, unknown>>(text: string, params: unknown[] = []) => backend.sql<T>(text, params),
    /** A PIX sale paid on the fake's invoice page (PAYMENT_CONFIRMED reaches asaas-webhook), as invoices.test.ts makes it. */
    async paidSale(o: { school?: string; userId?: string; value?: number; courseTitle?: string } = {}) {
      const school = o.school ?? SCHOOL.demo;
      const key = school === SCHOOL.demo ? DEMO.apiKey : RIVAL.apiKey;
      const value = o.value ?? 297;
      const id = randomUUID();
      const customer = await asaas(key, '/customers', { name: 'Aluna Teste', cpfCnpj: '52998224725' });
      const dueDate = new Date(Date.now() + 3 * DAY).toISOString().slice(0, 10);
      const charge = await asaas(key, '/payments', { customer: customer.id, billingType: 'PIX', value, dueDate, externalReference: id });
      const course = school === SCHOOL.demo ? COURSE.marketing : COURSE.rival;
      const title = o.courseTitle ?? 'Marketing Digital';
      const { error } = await service().from('payments').insert({
        id, school_id: school, user_id: o.userId ?? (school === SCHOOL.demo ? USER.aluna : USER.alunoRival), course_id: course,
        course_title: title, environment: 'sandbox', integration_id: INTEGRATION[school], billing_type: 'PIX', value,
        provider_payment_id: charge.id, provider_customer_id: customer.id, invoice_url: charge.invoiceUrl,
      });
      if (error) throw new Error(error.message);
      const items = await service().from('payment_items').insert({ payment_id: id, school_id: school, kind: 'course', course_id: course, title, list_price: value, value });
      if (items.error) throw new Error(items.error.message);
      expect((await fetch(`${fake().url}/i/${String(charge.id)}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
      await fake().idle();
      return { id, asaasId: String(charge.id) };
    },
    /** One run of issue-invoices at `now`; `idle`: then every event it caused delivered. */
    async runJob(now = new Date(), idle = true) {
      const res = await fetch(`${backend.url}/functions/v1/issue-invoices`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${SERVICE_ROLE_KEY}` },
        body: JSON.stringify({ now: now.toISOString() }),
      });
      const body = (await res.json()) as Record<string, number>;
      if (idle) await fake().idle();
      return { status: res.status, body };
    },
    async webhook(body: unknown, o: { school?: string | null; token?: string } = {}) {
      const q = o.school === null ? '' : `?school=${o.school ?? SCHOOL.demo}`;
      const res = await fetch(`${backend.url}/functions/v1/asaas-webhook${q}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(o.token ? { 'asaas-access-token': o.token } : {}) },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    invoiceOf: async (paymentId: string) => (await service().from('invoices').select('*').eq('payment_id', paymentId).maybeSingle()).data as InvoiceRow | null,
    invoiceCreates: (asaasPaymentId: string) => fake().requests.filter((r) => r.method === 'POST' && r.path === '/api/v3/invoices' && (r.body as { payment?: string }).payment === asaasPaymentId),
    authorizeCalls: (providerInvoiceId: string) => fake().requests.filter((r) => r.method === 'POST' && r.path === `/api/v3/invoices/${providerInvoiceId}/authorize`),
    atAsaas: (asaasPaymentId: string) => fake().invoices().filter((i) => i.payment === asaasPaymentId),
    /** Asaas's payment event as the fake sends it (refund), with the school's token. */
    refund: async (paymentId: string) => backend.sql(`update public.payments set status = 'REFUNDED' where id = $1`, [paymentId]),
  };
}

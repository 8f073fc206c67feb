// Shared by the turma attack tests (issue 40's outside attack): the demo school's buyers, charges through the
// real create-asaas-charge (Deno) against the fake Asaas, and the school's Asaas events through the real
// asaas-webhook.
import type { SupabaseClient } from '@supabase/supabase-js';
import { ANON_KEY, type useBackend } from '../harness.ts';
import { SCHOOL } from '../rls/seed.ts';
import { DEMO_ASAAS_ACCOUNTS } from '../../../scripts/fake-asaas/demo-accounts.ts';

const [DEMO] = DEMO_ASAAS_ACCOUNTS;
const DAY = 86_400_000;
export const PASSWORD = 'senha-ataque-40';
export const CUSTOMER = { name: 'Comprador Teste', email: 'comprador@exemplo.com.br', cpfCnpj: '529.982.247-25', phone: '(11) 98888-7777' };
export const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
export const spDate = (days: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() + days * DAY));

export async function must<T>(p: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(JSON.stringify(error));
  return data;
}

export function shop(backend: ReturnType<typeof useBackend>) {
  const service = backend.service();
  const insertRow = async (table: string, row: Record<string, unknown>) => ((await must(service.from(table).insert(row).select('id').single())) as { id: string }).id;
  /** A confirmed student of the demo school (what a sign-up plus the e-mail's link gives anyone). */
  async function buyer(prefix = 'comprador') {
    const email = `${prefix}.${tag()}@exemplo.com.br`;
    const created = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { name: 'Comprador', school_id: SCHOOL.demo } });
    if (created.error) throw created.error;
    return { id: created.data.user!.id, email, client: await backend.signIn(email, PASSWORD) };
  }
  async function charge(client: SupabaseClient, courseId: string, billingType: 'PIX' | 'BOLETO' = 'PIX', cpfCnpj = CUSTOMER.cpfCnpj) {
    const { data: session } = await client.auth.getSession();
    const res = await fetch(`${backend.url}/functions/v1/create-asaas-charge`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${session.session?.access_token ?? ''}`, apikey: ANON_KEY },
      body: JSON.stringify({ billing_type: billingType, customer: { ...CUSTOMER, cpfCnpj }, course_id: courseId }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  async function event(res: { body: Record<string, unknown> }, kind: 'PAYMENT_RECEIVED' | 'PAYMENT_REFUNDED') {
    const asaasId = String(res.body.invoiceUrl).split('/i/')[1]!;
    const p = backend.asaas.payment(asaasId)!;
    const r = await fetch(`${backend.url}/functions/v1/asaas-webhook?school=${SCHOOL.demo}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'asaas-access-token': DEMO.webhookToken },
      body: JSON.stringify({ id: `evt_${tag()}`, event: kind, payment: { object: 'payment', id: asaasId, customer: p.customer, externalReference: res.body.payment_id, status: kind === 'PAYMENT_RECEIVED' ? 'RECEIVED' : 'REFUNDED', value: p.value } }),
    });
    return ((await r.json()) as { outcome: string }).outcome;
  }
  type Offer = { state: string; turma: { id: string; name: string; seats_left: number | null } | null; waitlist_enabled: boolean } | null;
  const offer = async (client: SupabaseClient, courseId: string) => ((await must(client.rpc('checkout_quote', { p_course_id: courseId }))) as { turmas: Offer }).turmas;
  /** A published course for sale (R$ 100,00) with a module and a lesson. */
  async function course(title: string) {
    const id = await insertRow('courses', { school_id: SCHOOL.demo, title, slug: `turma-ataque-${tag()}`, status: 'PUBLISHED', price: 100 });
    const moduleId = await insertRow('modules', { course_id: id, title: 'Módulo', order_index: 0 });
    await insertRow('lessons', { module_id: moduleId, course_id: id, title: 'Aula' });
    return id;
  }
  return { service, insertRow, buyer, charge, event, offer, course };
}

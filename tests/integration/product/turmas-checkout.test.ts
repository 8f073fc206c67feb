// Issue 40, buying a course with turmas, in real Deno against the fake Asaas (docs/turmas.md): the
// checkout sells the open turma (the next by start date whose window is open and that has a seat),
// the charge holds the seat, concurrent buyers of the last seat get one charge and "Turma esgotada.",
// a full turma offers the waiting list when the school allows it, and the paid purchase enrolls in the
// turma it was sold in.
import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { ANON_KEY, useBackend } from '../harness.ts';
import { SCHOOL } from '../rls/seed.ts';
import { DEMO_ASAAS_ACCOUNTS } from '../../../scripts/fake-asaas/demo-accounts.ts';

const [DEMO] = DEMO_ASAAS_ACCOUNTS;
const DAY = 24 * 60 * 60 * 1000;
const CUSTOMER = { name: 'Comprador Teste', email: 'comprador@exemplo.com.br', cpfCnpj: '529.982.247-25', phone: '(11) 98888-7777' };
const PASSWORD = 'senha-turma-123';

const backend = useBackend({ fakeAsaas: true, functionSecrets: { SITE_URL: 'http://localhost:5999' } });
const fake = backend.asaas;
const service = backend.service();

async function must<T>(p: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(JSON.stringify(error));
  return data;
}
const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const spDate = (days: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() + days * DAY));
const insertRow = async (table: string, row: Record<string, unknown>) => ((await must(service.from(table).insert(row).select('id').single())) as { id: string }).id;

async function buyer() {
  const email = `turma.compra.${tag()}@exemplo.com.br`;
  const created = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { name: 'Comprador', school_id: SCHOOL.demo } });
  if (created.error) throw created.error;
  return { id: created.data.user!.id, client: await backend.signIn(email, PASSWORD) };
}

async function charge(client: SupabaseClient, courseId: string) {
  const { data: session } = await client.auth.getSession();
  const res = await fetch(`${backend.url}/functions/v1/create-asaas-charge`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${session.session?.access_token ?? ''}`, apikey: ANON_KEY },
    body: JSON.stringify({ billing_type: 'PIX', customer: CUSTOMER, course_id: courseId }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function pay(res: { body: Record<string, unknown> }) {
  const asaasId = String(res.body.invoiceUrl).split('/i/')[1]!;
  const p = fake.payment(asaasId)!;
  const r = await fetch(`${backend.url}/functions/v1/asaas-webhook?school=${SCHOOL.demo}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'asaas-access-token': DEMO.webhookToken },
    body: JSON.stringify({ id: `evt_${tag()}`, event: 'PAYMENT_RECEIVED', payment: { object: 'payment', id: asaasId, customer: p.customer, externalReference: res.body.payment_id, status: 'RECEIVED', value: p.value } }),
  });
  return ((await r.json()) as { outcome: string }).outcome;
}

type Offer = { state: string; turma: { id: string; name: string; seats_left: number | null } | null; waitlist_enabled: boolean } | null;
const offer = async (client: SupabaseClient, courseId: string) => ((await must(client.rpc('checkout_quote', { p_course_id: courseId }))) as { turmas: Offer }).turmas;

/** A published course for sale (R$ 100,00) with a module and a lesson. */
async function course(title: string) {
  const id = await insertRow('courses', { school_id: SCHOOL.demo, title, slug: `turmas-venda-${tag()}`, status: 'PUBLISHED', price: 100 });
  const moduleId = await insertRow('modules', { course_id: id, title: 'Módulo', order_index: 0 });
  await insertRow('lessons', { module_id: moduleId, course_id: id, title: 'Aula' });
  return id;
}

let plain: string;
beforeAll(async () => {
  plain = await course('Curso sem turmas');
}, 60_000);

describe('the checkout of a course with turmas', () => {
  it('a course without turmas sells as before (no turma in the quote, none on the enrollment)', async () => {
    const b = await buyer();
    expect(await offer(b.client, plain)).toBeNull();
    const res = await charge(b.client, plain);
    expect(res.status).toBe(200);
    expect(await pay(res)).toBe('enrolled');
    expect(await must(service.from('enrollments').select('turma_id, expires_at').eq('user_id', b.id).eq('course_id', plain))).toEqual([{ turma_id: null, expires_at: null }]);
  });

  it('sells the next turma by start date whose window is open and that has a seat, and the payment enrolls there with its end', async () => {
    const id = await course('Curso com turmas');
    // Closed window, full, then open: the third is sold.
    await insertRow('turmas', { course_id: id, name: 'Janela fechada', starts_on: spDate(1), enroll_until: new Date(Date.now() - DAY).toISOString() });
    const full = await insertRow('turmas', { course_id: id, name: 'Lotada', starts_on: spDate(2), seats: 1 });
    await insertRow('enrollments', { user_id: (await buyer()).id, course_id: id, turma_id: full });
    const open = await insertRow('turmas', { course_id: id, name: 'Aberta', starts_on: spDate(3), ends_on: spDate(60), seats: 10 });
    await insertRow('turmas', { course_id: id, name: 'Depois', starts_on: spDate(30) });
    const b = await buyer();
    expect(await offer(b.client, id)).toEqual({ state: 'open', turma: expect.objectContaining({ id: open, name: 'Aberta', seats_left: 10 }), waitlist_enabled: false });
    const res = await charge(b.client, id);
    expect(res.status).toBe(200);
    expect(await must(service.from('payment_items').select('turma_id').eq('payment_id', String(res.body.payment_id)))).toEqual([{ turma_id: open }]);
    // The charge holds the seat for its buyer.
    expect((await offer((await buyer()).client, id))?.turma?.seats_left).toBe(9);
    expect(await pay(res)).toBe('enrolled');
    const [row] = (await must(service.from('enrollments').select('turma_id, expires_at').eq('user_id', b.id).eq('course_id', id))) as { turma_id: string; expires_at: string }[];
    expect(row!.turma_id).toBe(open);
    expect(new Date(row!.expires_at).getTime()).toBe(new Date(`${spDate(61)}T03:00:00Z`).getTime());
  });

  it('the last seat cannot be taken twice by concurrent buyers: one charge, the others "Turma esgotada."; then the waiting list', async () => {
    const id = await course('Curso da última vaga');
    const turma = await insertRow('turmas', { course_id: id, name: 'Última vaga', starts_on: spDate(5), seats: 2, waitlist_enabled: true });
    await insertRow('enrollments', { user_id: (await buyer()).id, course_id: id, turma_id: turma });
    const buyers = await Promise.all(Array.from({ length: 6 }, () => buyer()));
    const before = fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/payments')).length;
    const results = await Promise.all(buyers.map((b) => charge(b.client, id)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).map((r) => [r.body.error, r.body.field])).toEqual(Array(5).fill(['Turma esgotada.', 'turma']));
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/payments')).length - before).toBe(1);
    const held = (await must(service.from('payment_items').select('payment_id').eq('turma_id', turma))) as unknown[];
    expect(held).toHaveLength(1);

    // A buyer who came late: sold out, with the waiting list; they join it once.
    const late = buyers[results.findIndex((r) => r.status === 409)]!;
    expect(await offer(late.client, id)).toEqual({ state: 'sold_out', turma: null, waitlist_enabled: true });
    const entry = (await must(late.client.rpc('join_turma_waitlist', { p_course_id: id }))) as { turma_id: string; user_id: string };
    expect(entry).toMatchObject({ turma_id: turma, user_id: late.id });
    await must(late.client.rpc('join_turma_waitlist', { p_course_id: id }));
    expect(await must(service.from('turma_waitlist').select('user_id').eq('course_id', id))).toEqual([{ user_id: late.id }]);
    expect(await must(late.client.from('turma_waitlist').select('course_id'))).toEqual([{ course_id: id }]);

    // The winner pays: enrolled in the turma, which then has its 2 students and no more.
    const winner = buyers[results.findIndex((r) => r.status === 200)]!;
    expect(await pay(results.find((r) => r.status === 200)!)).toBe('enrolled');
    expect(await must(service.from('enrollments').select('user_id').eq('turma_id', turma).eq('user_id', winner.id))).toHaveLength(1);
    expect(await must(service.from('enrollments').select('id').eq('turma_id', turma))).toHaveLength(2);
  });

  it('no waiting list where the school did not allow one, nor while a seat is left', async () => {
    const id = await course('Curso sem lista');
    const turma = await insertRow('turmas', { course_id: id, name: 'Sem lista', starts_on: spDate(5), seats: 1 });
    const b = await buyer();
    expect((await b.client.rpc('join_turma_waitlist', { p_course_id: id })).error?.message).toBe('Esta turma não tem lista de espera agora.');
    await insertRow('enrollments', { user_id: (await buyer()).id, course_id: id, turma_id: turma });
    expect(await offer(b.client, id)).toEqual({ state: 'sold_out', turma: null, waitlist_enabled: false });
    expect((await b.client.rpc('join_turma_waitlist', { p_course_id: id })).error?.message).toBe('Esta turma não tem lista de espera agora.');
    expect(await must(service.from('turma_waitlist').select('id').eq('course_id', id))).toEqual([]);
    const refused = await charge(b.client, id);
    expect(refused).toMatchObject({ status: 409, body: { error: 'Turma esgotada.' } });
  });
});

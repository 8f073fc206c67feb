// Issue 42's outside attack on the invoices' work and state (20261128010500), in real Deno against the fake
// Asaas. Each ATTACK failed on the code before that migration; each has its control.
// - f6: a school that turns Notas fiscais off with a run's worth of invoices due does not stop other schools.
// - f3: a payment refunded while its invoice's create is in doubt never gets a note issued.
// - f1: a late ERROR never un-issues an authorized note.
// - f4: a late event of the failed attempt does not strand "Emitir novamente".
// - f7: an invoice refused at the create, then refunded, is not issued (not "Com erro" for ever).
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { ANON_KEY, useBackend } from '../harness.ts';
import { COMPLETE_FISCAL_INFO } from '../../../scripts/fake-asaas/invoices.ts';
import { DEMO, SCHOOL, afterGuarantee, helpers, type InvoiceRow } from './invoice-attack-helpers.ts';

const backend = useBackend({ fakeAsaas: { eventDelayMs: 10 }, functionSecrets: { SITE_URL: 'http://localhost:5999' } });
const h = helpers(backend);
const admin = backend.signedIn('adminDemo');
const rival = backend.signedIn('adminRival');
const aluna = backend.signedIn('aluna');
afterEach(() => {
  backend.asaas.setInvoiceOutcome(DEMO.apiKey, { error: null, denyCancellation: false });
  backend.asaas.setFiscalInfo(DEMO.apiKey, COMPLETE_FISCAL_INFO);
});

async function settings(client: SupabaseClient, body: Record<string, unknown>) {
  const token = (await client.auth.getSession()).data.session?.access_token;
  const res = await fetch(`${backend.url}/functions/v1/invoice-settings`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', apikey: ANON_KEY, Authorization: `Bearer ${token}` }, body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

describe('f6: a school with its switch off does not starve the job', () => {
  let stuck: { id: string; asaasId: string } | null = null;

  it('ATTACK: the rival school turns Notas fiscais off with 20 invoices due; the demo school\'s invoice is still issued', async () => {
    expect((await rival.from('school_invoice_settings').upsert({ school_id: SCHOOL.rival, municipal_service_id: '07285', municipal_service_name: 'Cursos livres' }, { onConflict: 'school_id' })).error).toBeNull();
    expect((await settings(rival, { action: 'enable', enabled: true })).body).toMatchObject({ enabled: true });
    for (let i = 0; i < 20; i++) await h.paidSale({ school: SCHOOL.rival, value: 10 + i });
    expect((await settings(rival, { action: 'enable', enabled: false })).body).toMatchObject({ enabled: false });
    stuck = await h.paidSale(); // paid after the rival's sales: due after them
    await h.runJob(afterGuarantee());
    expect((await h.invoiceOf(stuck.id))!.status).toBe('authorized');
    // The rival's invoices wait for its switch, untouched.
    expect((await h.sql(`select count(*)::int as n from public.invoices where school_id = $1 and status = 'pending'`, [SCHOOL.rival]))[0]!.n).toBe(20);
  });

  it('control: the rival turns it back on and its invoices are issued', async () => {
    expect((await settings(rival, { action: 'enable', enabled: true })).body).toMatchObject({ enabled: true });
    await h.runJob(afterGuarantee());
    await h.runJob(afterGuarantee());
    expect((await h.sql(`select count(*)::int as n from public.invoices where school_id = $1 and status = 'authorized'`, [SCHOOL.rival]))[0]!.n).toBe(20);
    expect((await settings(rival, { action: 'enable', enabled: false })).body).toMatchObject({ enabled: false });
  });

  it('ATTACK: cancellations get their share of a run full of creates', async () => {
    const refunded = await h.paidSale();
    await h.runJob(afterGuarantee());
    expect((await h.invoiceOf(refunded.id))!.status).toBe('authorized');
    await h.refund(refunded.id);
    // A run's worth of creates due before the cancel.
    for (let i = 0; i < 20; i++) await h.paidSale({ value: 10 + i });
    const { data, error } = await backend.service().rpc('claim_invoice_work', { p_now: afterGuarantee().toISOString(), p_limit: 20 });
    expect(error).toBeNull();
    const work = data as { invoice_id: string; action: string }[];
    expect(work.filter((w) => w.action === 'cancel').map((w) => w.invoice_id)).toEqual([(await h.invoiceOf(refunded.id))!.id]);
    expect(work.filter((w) => w.action === 'create').length).toBeGreaterThan(0);
    // The claimed creates were never sent: out of the way of the next tests.
    await h.sql(`delete from public.invoices where school_id = $1 and status = 'creating'`, [SCHOOL.demo]);
  });
});

/** A sale whose invoice the job claimed (status creating) and then lost track of; the lease is made to run out. */
async function claimedThenLost() {
  const sale = await h.paidSale();
  const inv = (await h.invoiceOf(sale.id))!;
  const { data, error } = await backend.service().rpc('claim_invoice_work', { p_now: afterGuarantee().toISOString(), p_limit: 100 });
  expect(error).toBeNull();
  expect((data as { invoice_id: string; action: string }[]).find((w) => w.invoice_id === inv.id)?.action).toBe('create');
  expect((await h.invoiceOf(sale.id))!.status).toBe('creating');
  return { sale, inv };
}
const expireLease = (id: string) => h.sql(`update public.invoices set claimed_at = now() - interval '11 minutes' where id = $1`, [id]);

describe('f3: refund while the create is in doubt', () => {
  it('ATTACK: nothing reached Asaas; the payment is refunded; the next run creates nothing and the invoice is not issued', async () => {
    const { sale, inv } = await claimedThenLost();
    await h.refund(sale.id);
    await expireLease(inv.id);
    await h.runJob(afterGuarantee());
    expect(h.invoiceCreates(sale.asaasId)).toHaveLength(0);
    expect((await h.invoiceOf(sale.id))!.status).toBe('not_issued');
  });

  it('ATTACK: Asaas has it scheduled (answer lost); refunded; cancellations denied -> cancelled, never issued', async () => {
    backend.asaas.setInvoiceOutcome(DEMO.apiKey, { denyCancellation: true });
    const { sale, inv } = await claimedThenLost();
    // The create that reached Asaas but whose answer was lost.
    const res = await fetch(`${backend.asaas.apiUrl}/invoices`, {
      method: 'POST', headers: { access_token: DEMO.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ payment: sale.asaasId, externalReference: inv.id, serviceDescription: 'x', observations: '', value: 297, deductions: 0,
        effectiveDate: new Date().toISOString().slice(0, 10), municipalServiceId: '07285', municipalServiceName: 'Cursos', taxes: { retainIss: false, iss: 2, cofins: 0, csll: 0, inss: 0, ir: 0, pis: 0 } }),
    });
    expect(res.status).toBe(200);
    const provider = ((await res.json()) as { id: string }).id;
    await backend.asaas.idle();
    await h.refund(sale.id);
    await expireLease(inv.id);
    await h.runJob(afterGuarantee());
    await h.runJob(afterGuarantee());
    expect(h.authorizeCalls(provider)).toHaveLength(0);
    expect((await h.invoiceOf(sale.id))!.status).toBe('cancelled');
    expect(h.atAsaas(sale.asaasId).map((i) => i.status)).toEqual(['CANCELED']);
  });

  it('ATTACK: the answer of the create was lost before the webhook came; refunded -> looked up at Asaas and cancelled', async () => {
    const { sale, inv } = await claimedThenLost();
    // Asaas holds it, and neither the job nor the webhook recorded its id.
    const res = await fetch(`${backend.asaas.apiUrl}/invoices`, {
      method: 'POST', headers: { access_token: DEMO.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ payment: sale.asaasId, externalReference: inv.id, serviceDescription: 'x', observations: '', value: 297, deductions: 0,
        effectiveDate: new Date().toISOString().slice(0, 10), municipalServiceId: '07285', municipalServiceName: 'Cursos', taxes: { retainIss: false, iss: 2, cofins: 0, csll: 0, inss: 0, ir: 0, pis: 0 } }),
    });
    const provider = ((await res.json()) as { id: string }).id;
    await backend.asaas.idle();
    await h.sql(`update public.invoices set provider_invoice_id = null, status = 'creating' where id = $1`, [inv.id]);
    await h.refund(sale.id);
    await expireLease(inv.id);
    await h.runJob(afterGuarantee());
    expect(h.authorizeCalls(provider)).toHaveLength(0);
    expect(h.invoiceCreates(sale.asaasId)).toHaveLength(1); // the lost one only
    expect((await h.invoiceOf(sale.id))!.status).toBe('cancelled');
  });

  it('control: a refund while the invoice is pending drops it (not_issued) and nothing reaches Asaas; an in-doubt create of a sale that stands is issued once', async () => {
    const sale = await h.paidSale();
    await h.refund(sale.id);
    await h.runJob(afterGuarantee());
    expect((await h.invoiceOf(sale.id))!.status).toBe('not_issued');
    expect(h.invoiceCreates(sale.asaasId)).toHaveLength(0);
    const kept = await claimedThenLost();
    await expireLease(kept.inv.id);
    await h.runJob(afterGuarantee());
    expect((await h.invoiceOf(kept.sale.id))!.status).toBe('authorized');
    expect(h.invoiceCreates(kept.sale.asaasId)).toHaveLength(1);
  });
});

async function authorizedInvoice() {
  const sale = await h.paidSale();
  await h.runJob(afterGuarantee());
  const inv = (await h.invoiceOf(sale.id))!;
  expect(inv.status).toBe('authorized');
  return { sale, inv };
}
const event = (inv: InvoiceRow, sale: { asaasId: string }, name: string, status: string) => ({
  id: `evt_${randomUUID()}`, event: name,
  invoice: { id: inv.provider_invoice_id, payment: sale.asaasId, externalReference: inv.id, status, statusDescription: 'Erro de uma tentativa anterior' },
});

describe('f1: a late ERROR event does not un-issue an authorized invoice', () => {
  it('ATTACK: INVOICE_ERROR (Asaas token, a new event id) after AUTHORIZED leaves it authorized, counted and not retried', async () => {
    const { sale, inv } = await authorizedInvoice();
    const before = (await admin.rpc('admin_invoice_totals', {})).data as Record<string, number>;
    expect((await h.webhook(event(inv, sale, 'INVOICE_ERROR', 'ERROR'), { token: DEMO.webhookToken })).status).toBe(200);
    const totals = (await admin.rpc('admin_invoice_totals', {})).data as Record<string, number>;
    const mine = ((await aluna.rpc('my_purchases', { p_limit: 100 })).data as { payment_id: string; invoice_status: string }[]).find((p) => p.payment_id === sale.id);
    const retry = await admin.rpc('retry_invoice', { p_invoice_id: inv.id });
    expect({ status: (await h.invoiceOf(sale.id))!.status, issued: totals.issued, buyer: mine?.invoice_status, retryError: retry.error?.code ?? null })
      .toEqual({ status: 'authorized', issued: before.issued, buyer: 'authorized', retryError: '22023' });
  });

  it('ATTACK: INVOICE_UPDATED with status ERROR after AUTHORIZED leaves it authorized', async () => {
    const { sale, inv } = await authorizedInvoice();
    await h.webhook(event(inv, sale, 'INVOICE_UPDATED', 'ERROR'), { token: DEMO.webhookToken });
    expect((await h.invoiceOf(sale.id))!.status).toBe('authorized');
  });

  it('control: an older SYNCHRONIZED after AUTHORIZED is ignored, and AUTHORIZED after ERROR moves forward', async () => {
    const { sale, inv } = await authorizedInvoice();
    await h.webhook(event(inv, sale, 'INVOICE_SYNCHRONIZED', 'SYNCHRONIZED'), { token: DEMO.webhookToken });
    expect((await h.invoiceOf(sale.id))!.status).toBe('authorized');
    await h.sql(`update public.invoices set status = 'error' where id = $1`, [inv.id]);
    await h.webhook(event(inv, sale, 'INVOICE_AUTHORIZED', 'AUTHORIZED'), { token: DEMO.webhookToken });
    expect((await h.invoiceOf(sale.id))!.status).toBe('authorized');
  });
});

async function retried() {
  backend.asaas.setInvoiceOutcome(DEMO.apiKey, { error: 'Inscrição municipal inválida.' });
  const sale = await h.paidSale();
  await h.runJob(afterGuarantee());
  const inv = (await h.invoiceOf(sale.id))!;
  expect(inv.status).toBe('error');
  backend.asaas.setInvoiceOutcome(DEMO.apiKey, { error: null });
  expect((await admin.rpc('retry_invoice', { p_invoice_id: inv.id })).error).toBeNull();
  return { sale, inv };
}

describe('f4: a late event of the failed attempt does not strand a retried invoice', () => {
  it('ATTACK: INVOICE_SYNCHRONIZED of the first attempt arrives after "Emitir novamente"; the retry is still issued', async () => {
    const { sale, inv } = await retried();
    const late = await h.webhook({ id: `evt_${randomUUID()}`, event: 'INVOICE_SYNCHRONIZED',
      invoice: { id: inv.provider_invoice_id, payment: sale.asaasId, externalReference: inv.id, status: 'SYNCHRONIZED' } }, { token: DEMO.webhookToken });
    expect(late.status).toBe(200);
    expect((await h.invoiceOf(sale.id))!.status).toBe('pending');
    await h.runJob(new Date());
    expect((await h.invoiceOf(sale.id))!.status).toBe('authorized');
  });

  it('control: without the late event the retry is issued and authorized', async () => {
    const { sale } = await retried();
    await h.runJob(new Date());
    expect((await h.invoiceOf(sale.id))!.status).toBe('authorized');
  });
});

describe('f7: a refused create, then a refund', () => {
  it('ATTACK: the refunded sale\'s never-created invoice is not issued and leaves "Notas com erro"', async () => {
    const sale = await h.paidSale();
    // Asaas refuses the create itself (the account's fiscal info was removed): 4xx with its words.
    backend.asaas.setFiscalInfo(DEMO.apiKey, null);
    await h.runJob(afterGuarantee());
    const failed = (await h.invoiceOf(sale.id))!;
    expect(failed.status).toBe('error');
    expect(failed.provider_invoice_id).toBeNull();
    backend.asaas.setFiscalInfo(DEMO.apiKey, COMPLETE_FISCAL_INFO);
    await h.refund(sale.id);
    await h.runJob(afterGuarantee());
    expect((await h.invoiceOf(sale.id))!.status).toBe('not_issued');
    const errors = ((await admin.rpc('admin_invoices', { p_status: 'error' })).data as { id: string }[]).map((r) => r.id);
    expect(errors).not.toContain(failed.id);
  });

  it('control: a refund before the create drops the invoice (not_issued); a refused create of a sale that stands stays "Com erro"', async () => {
    const sale = await h.paidSale();
    await h.refund(sale.id);
    expect((await h.invoiceOf(sale.id))!.status).toBe('not_issued');
    const kept = await h.paidSale();
    backend.asaas.setFiscalInfo(DEMO.apiKey, null);
    await h.runJob(afterGuarantee());
    expect((await h.invoiceOf(kept.id))!.status).toBe('error');
  });
});

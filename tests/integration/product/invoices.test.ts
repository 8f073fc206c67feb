// Issue 42, notas fiscais, in real Deno against the fake Asaas: a confirmed payment of a school with Notas
// fiscais on gets one invoice, issued by issue-invoices when due (on the test clock: after the guarantee days),
// followed by Asaas's invoice webhooks, e-mailed when authorized and listed in the buyer's "Minhas compras";
// a refund cancels it (or records the municipality's denial); an error keeps the municipality's message and
// "Emitir novamente" issues once. Attacks: a forged invoice event, another school's token, another buyer.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ANON_KEY, SERVICE_ROLE_KEY, useBackend } from '../harness.ts';
import { inbox } from '../auth-helpers.ts';
import { COURSE, SCHOOL, USER } from '../rls/seed.ts';
import { DEMO_ASAAS_ACCOUNTS } from '../../../scripts/fake-asaas/demo-accounts.ts';

const [DEMO, RIVAL] = DEMO_ASAAS_ACCOUNTS;
const INTEGRATION: Record<string, string> = { [SCHOOL.demo]: 'ee000000-0000-4000-8000-000000000001', [SCHOOL.rival]: 'ee000000-0000-4000-8000-000000000021' };
const DAY = 86_400_000;

const backend = useBackend({ fakeAsaas: { eventDelayMs: 10 }, functionSecrets: { SITE_URL: 'http://localhost:5999' } });
const fake = backend.asaas;
const service = backend.service();
const clients = {
  admin: backend.signedIn('adminDemo'),
  rival: backend.signedIn('adminRival'),
  aluna: backend.signedIn('aluna'),
  aluno: backend.signedIn('aluno'),
};

afterEach(() => fake.setInvoiceOutcome(DEMO.apiKey, { error: null, denyCancellation: false }));

async function asaas(key: string, path: string, body: unknown) {
  const res = await fetch(`${fake.apiUrl}${path}`, { method: 'POST', headers: { access_token: key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return (await res.json()) as Record<string, unknown>;
}

/** A sale as create-asaas-charge leaves it, paid on the fake's invoice page (PAYMENT_CONFIRMED reaches asaas-webhook). */
async function paidSale(o: { school?: string; userId?: string; value?: number; installments?: number } = {}) {
  const school = o.school ?? SCHOOL.demo;
  const key = school === SCHOOL.demo ? DEMO.apiKey : RIVAL.apiKey;
  const value = o.value ?? 297;
  const id = randomUUID();
  const customer = await asaas(key, '/customers', { name: 'Aluna Teste', cpfCnpj: '52998224725' });
  const dueDate = new Date(Date.now() + 3 * DAY).toISOString().slice(0, 10);
  const charge = o.installments
    ? await asaas(key, '/payments', {
        customer: customer.id, billingType: 'CREDIT_CARD', installmentCount: o.installments, totalValue: value, dueDate, externalReference: id,
        creditCard: { holderName: 'ALUNA', number: '5162306219378829', expiryMonth: '05', expiryYear: '2031', ccv: '123' },
        creditCardHolderInfo: { name: 'Aluna', email: 'a@b.com', cpfCnpj: '52998224725', postalCode: '01310100', addressNumber: '1', phone: '11988887777' },
      })
    : await asaas(key, '/payments', { customer: customer.id, billingType: 'PIX', value, dueDate, externalReference: id });
  const { error } = await service.from('payments').insert({
    id,
    school_id: school,
    user_id: o.userId ?? (school === SCHOOL.demo ? USER.aluna : USER.alunoRival),
    course_id: school === SCHOOL.demo ? COURSE.marketing : COURSE.rival,
    course_title: 'Marketing Digital',
    environment: 'sandbox',
    integration_id: INTEGRATION[school],
    billing_type: o.installments ? 'CREDIT_CARD' : 'PIX',
    value,
    ...(o.installments ? { installment_count: o.installments, provider_installment_id: charge.installment } : {}),
    provider_payment_id: charge.id,
    provider_customer_id: customer.id,
    invoice_url: charge.invoiceUrl,
  });
  if (error) throw new Error(error.message);
  const items = await service.from('payment_items').insert({ payment_id: id, school_id: school, kind: 'course', course_id: school === SCHOOL.demo ? COURSE.marketing : COURSE.rival, title: 'Marketing Digital', list_price: value, value });
  if (items.error) throw new Error(items.error.message);
  expect((await fetch(`${fake.url}/i/${String(charge.id)}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
  return { id, asaasId: String(charge.id) };
}

/** One run of the scheduled job at `now` (the test clock), then every event it caused delivered. */
async function runJob(now = new Date()) {
  const res = await fetch(`${backend.url}/functions/v1/issue-invoices`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${SERVICE_ROLE_KEY}` },
    body: JSON.stringify({ now: now.toISOString() }),
  });
  const body = (await res.json()) as Record<string, number>;
  await fake.idle();
  return { status: res.status, body };
}
const afterGuarantee = () => new Date(Date.now() + 8 * DAY);

const invoiceOf = async (paymentId: string) => (await service.from('invoices').select('*').eq('payment_id', paymentId).maybeSingle()).data;
const invoicesOf = async (paymentId: string) => (await service.from('invoices').select('id').eq('payment_id', paymentId)).data ?? [];
const invoiceCreates = (asaasPaymentId: string) => fake.requests.filter((r) => r.method === 'POST' && r.path === '/api/v3/invoices' && (r.body as { payment?: string }).payment === asaasPaymentId);
const atAsaas = (asaasPaymentId: string) => fake.invoices().filter((i) => i.payment === asaasPaymentId);

async function webhook(body: unknown, o: { school?: string | null; token?: string }) {
  const q = o.school === null ? '' : `?school=${o.school ?? SCHOOL.demo}`;
  const res = await fetch(`${backend.url}/functions/v1/asaas-webhook${q}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(o.token ? { 'asaas-access-token': o.token } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('issuing', () => {
  it('a confirmed payment is scheduled for after the guarantee days, then issued, authorized and e-mailed with its PDF', async () => {
    const sale = await paidSale();
    const scheduled = await invoiceOf(sale.id);
    expect(scheduled).toMatchObject({ status: 'pending', value: 297, user_id: USER.aluna, school_id: SCHOOL.demo, provider_invoice_id: null });
    const due = new Date(scheduled!.issue_at).getTime() - Date.now();
    expect(due).toBeGreaterThan(6.9 * DAY);
    expect(due).toBeLessThan(7.1 * DAY);

    // Within the guarantee nothing goes to Asaas.
    await runJob(new Date(Date.now() + 6 * DAY));
    expect(invoiceCreates(sale.asaasId)).toHaveLength(0);
    expect((await invoiceOf(sale.id))!.status).toBe('pending');

    await runJob(afterGuarantee());
    const created = invoiceCreates(sale.asaasId);
    expect(created).toHaveLength(1);
    const sent = created[0]!.body as Record<string, unknown>;
    expect(sent).toMatchObject({
      payment: sale.asaasId,
      externalReference: scheduled!.id,
      value: 297,
      deductions: 0,
      municipalServiceId: '07285',
      municipalServiceName: 'Cursos livres, cursos on-line e treinamentos à distância',
      taxes: { retainIss: false, iss: 2, cofins: 0, csll: 0, inss: 0, ir: 0, pis: 0 },
    });
    expect(sent.serviceDescription).toMatch(/^Acesso ao curso online Marketing Digital, adquirido por .+ em \d{2}\/\d{2}\/\d{4}\.$/);

    const issued = (await invoiceOf(sale.id))!;
    expect(issued).toMatchObject({ status: 'authorized', iss_rate: 2, iss_value: 5.94, error_message: null });
    expect(issued.provider_invoice_id).toBe(atAsaas(sale.asaasId)[0]!.id);
    expect(issued.pdf_url).toMatch(/^http:\/\/localhost:\d+\/nf\/inv_\w+\.pdf$/);
    expect(issued.xml_url).toMatch(/\.xml$/);
    expect((await fetch(issued.pdf_url!)).headers.get('content-type')).toBe('application/pdf');

    const { data: mails } = await service.from('email_outbox').select('kind, to_email, payload').eq('idempotency_key', `invoice:${issued.id}:authorized`);
    expect(mails).toHaveLength(1);
    expect(mails![0]).toMatchObject({ kind: 'invoice_available', to_email: 'aluna@escola-demo.com.br', payload: { pdf_url: issued.pdf_url, number: issued.number, amount: 297 } });

    // Another run has nothing left to do; a repeated AUTHORIZED event writes no second e-mail.
    expect((await runJob(afterGuarantee())).body).toEqual({ created: 0, issued: 0, cancelled: 0, refused: 0, unknown: 0 });
    await fake.sendInvoiceEvent(issued.provider_invoice_id!, 'INVOICE_AUTHORIZED');
    expect((await service.from('email_outbox').select('id').eq('idempotency_key', `invoice:${issued.id}:authorized`)).data).toHaveLength(1);
  });

  it('one invoice per payment under repeated and concurrent events and concurrent runs of the job', async () => {
    const sale = await paidSale();
    // Asaas delivers at least once: the same confirmation again, and under other event ids, at once.
    await Promise.all([
      fake.sendEvent(sale.asaasId, 'PAYMENT_CONFIRMED'),
      fake.sendEvent(sale.asaasId, 'PAYMENT_RECEIVED'),
      fake.sendEvent(sale.asaasId, 'PAYMENT_CONFIRMED'),
    ]);
    expect(await invoicesOf(sale.id)).toHaveLength(1);

    const runs = await Promise.all([runJob(afterGuarantee()), runJob(afterGuarantee()), runJob(afterGuarantee())]);
    expect(runs.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(runs.reduce((n, r) => n + r.body.created!, 0)).toBe(1);
    expect(invoiceCreates(sale.asaasId)).toHaveLength(1);
    expect(atAsaas(sale.asaasId)).toHaveLength(1);
    expect((await invoiceOf(sale.id))!.status).toBe('authorized');
  });

  it('a create whose answer was lost is found at Asaas by externalReference, never created twice', async () => {
    const sale = await paidSale();
    const row = (await invoiceOf(sale.id))!;
    // A run claims it and dies after Asaas created the invoice, before recording it.
    const { data: claimed } = await service.rpc('claim_invoice_work', { p_now: afterGuarantee().toISOString(), p_limit: 100 });
    expect((claimed as { invoice_id: string }[]).map((w) => w.invoice_id)).toContain(row.id);
    const lost = await asaas(DEMO.apiKey, '/invoices', {
      payment: sale.asaasId, externalReference: row.id, serviceDescription: 'Curso', observations: '', value: 297, deductions: 0,
      effectiveDate: new Date().toISOString().slice(0, 10), municipalServiceId: '07285', municipalServiceName: 'Cursos', taxes: { retainIss: false, iss: 2 },
    });
    await fake.idle();
    // While its claim holds, no run touches it (Asaas's INVOICE_CREATED told us its id meanwhile).
    await runJob(afterGuarantee());
    expect(await invoiceOf(sale.id)).toMatchObject({ status: 'scheduled', provider_invoice_id: lost.id });
    expect(invoiceCreates(sale.asaasId)).toHaveLength(1); // the dead run's
    // The dead run's claim was taken 11 minutes ago: the next run looks the invoice up and issues that one.
    await service.from('invoices').update({ claimed_at: new Date(Date.now() - 11 * 60_000).toISOString() }).eq('id', row.id);
    await runJob(afterGuarantee());
    expect(atAsaas(sale.asaasId).map((i) => i.id)).toEqual([lost.id]);
    expect(invoiceCreates(sale.asaasId)).toHaveLength(1);
    expect(await invoiceOf(sale.id)).toMatchObject({ status: 'authorized', provider_invoice_id: lost.id });
  });

  it('a card in installments gets one invoice of the whole installment plan', async () => {
    const sale = await paidSale({ value: 300, installments: 3 });
    const installment = String(fake.payment(sale.asaasId)!.installment);
    expect(await invoicesOf(sale.id)).toHaveLength(1);
    await runJob(afterGuarantee());
    const creates = fake.requests.filter((r) => r.method === 'POST' && r.path === '/api/v3/invoices' && (r.body as { installment?: string }).installment === installment);
    expect(creates).toHaveLength(1);
    expect(creates[0]!.body).toMatchObject({ value: 300 });
    expect(creates[0]!.body).not.toHaveProperty('payment');
    expect(await invoiceOf(sale.id)).toMatchObject({ status: 'authorized', value: 300 });
  });

  it('the schedule (pg_cron + pg_net) calls issue-invoices once an invoice is due', async () => {
    const sale = await paidSale();
    await backend.server.jobs.tick();
    await fake.idle();
    expect(invoiceCreates(sale.asaasId)).toHaveLength(0);
    // Seven days later, on the database's own clock.
    await service.from('invoices').update({ issue_at: new Date(Date.now() - 60_000).toISOString() }).eq('payment_id', sale.id);
    await backend.server.jobs.tick(new Date(Date.now() + 60_000));
    await fake.idle();
    expect(invoiceCreates(sale.asaasId)).toHaveLength(1);
    expect((await invoiceOf(sale.id))!.status).toBe('authorized');
  });

  it('a school with Notas fiscais off gets no invoice', async () => {
    const sale = await paidSale({ school: SCHOOL.rival });
    expect(await invoicesOf(sale.id)).toEqual([]);
  });
});

describe('the whole path', () => {
  it('a PIX bought at the checkout: after the guarantee the buyer gets "Nota fiscal disponível" with the PDF, and Minhas compras lists it', async () => {
    const email = `nf.${Date.now().toString(36)}@exemplo.com.br`;
    const created = await service.auth.admin.createUser({ email, password: 'senha-nota-123', email_confirm: true, user_metadata: { name: 'Renata Lima', school_id: SCHOOL.demo } });
    if (created.error) throw created.error;
    const buyer = await backend.signIn(email, 'senha-nota-123');
    const token = (await buyer.auth.getSession()).data.session!.access_token;
    const charge = await fetch(`${backend.url}/functions/v1/create-asaas-charge`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', apikey: ANON_KEY, Authorization: `Bearer ${token}` },
      body: JSON.stringify({ course_id: COURSE.marketing, billing_type: 'PIX', customer: { name: 'Renata Lima', email, cpfCnpj: '529.982.247-25', phone: '(11) 98888-7777' } }),
    });
    const { payment_id: paymentId, invoiceUrl } = (await charge.json()) as { payment_id: string; invoiceUrl: string };
    expect(charge.status).toBe(200);
    expect((await fetch(`${fake.url}/i/${invoiceUrl.split('/i/')[1]!}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    await fake.idle();
    expect((await invoiceOf(paymentId))!.status).toBe('pending');

    await runJob(afterGuarantee());
    const issued = (await invoiceOf(paymentId))!;
    expect(issued.status).toBe('authorized');
    const sent = await fetch(`${backend.url}/functions/v1/send-emails`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${SERVICE_ROLE_KEY}` },
      body: JSON.stringify({ limit: 200 }),
    });
    expect(sent.status).toBe(200);
    const mail = (await inbox(backend, email)).find((m) => m.subject.startsWith('Nota fiscal disponível'));
    expect(mail?.subject).toBe('Nota fiscal disponível: Marketing Digital para Pequenos Negócios');
    expect(mail!.text).toContain(`Baixar a nota fiscal (PDF): ${issued.pdf_url}`);
    expect(mail!.text).toContain('Olá, Renata!');

    const { data: purchases } = await buyer.rpc('my_purchases', {});
    expect(purchases).toEqual([expect.objectContaining({ payment_id: paymentId, invoice_status: 'authorized', invoice_pdf_url: issued.pdf_url, invoice_xml_url: issued.xml_url })]);
  });
});

describe('the webhook', () => {
  it('a forged invoice event changes nothing; the school\'s own token moves it (control)', async () => {
    const sale = await paidSale();
    await runJob(afterGuarantee());
    const before = (await invoiceOf(sale.id))!;
    expect(before.status).toBe('authorized');
    const event = (id: string, ev: string) => ({ id, event: ev, invoice: { ...fake.invoice(before.provider_invoice_id!), status: 'CANCELED' } });

    for (const token of [undefined, 'whtok_forjado', RIVAL.webhookToken]) {
      const r = await webhook(event(`evt_forged_${randomUUID()}`, 'INVOICE_CANCELED'), { token });
      expect(r.status, String(token)).toBe(401);
    }
    // Without ?school the school is the invoice's own: another school's token is refused too.
    expect((await webhook(event(`evt_forged_${randomUUID()}`, 'INVOICE_CANCELED'), { school: null, token: RIVAL.webhookToken })).status).toBe(401);
    expect(await invoiceOf(sale.id)).toMatchObject({ status: 'authorized', cancelled_at: null, updated_at: before.updated_at });

    // Control: Asaas's own event, with the school's token, is applied.
    const ok = await webhook(event(`evt_${randomUUID()}`, 'INVOICE_CANCELED'), { token: DEMO.webhookToken });
    expect(ok).toEqual({ status: 200, body: { received: true, outcome: 'invoice_cancelled' } });
    expect((await invoiceOf(sale.id))!.status).toBe('cancelled');
  });

  it("another school's token, on its own school, cannot touch this school's invoice", async () => {
    const sale = await paidSale();
    await runJob(afterGuarantee());
    const before = (await invoiceOf(sale.id))!;
    const invoice = { ...fake.invoice(before.provider_invoice_id!), status: 'ERROR', statusDescription: 'forjado' };
    const r = await webhook({ id: `evt_${randomUUID()}`, event: 'INVOICE_ERROR', invoice }, { school: SCHOOL.rival, token: RIVAL.webhookToken });
    expect(r).toEqual({ status: 200, body: { received: true, outcome: 'unknown_invoice' } });
    // By our id (externalReference) too.
    const r2 = await webhook({ id: `evt_${randomUUID()}`, event: 'INVOICE_ERROR', invoice: { ...invoice, id: 'inv_outro' } }, { school: SCHOOL.rival, token: RIVAL.webhookToken });
    expect(r2.body.outcome).toBe('unknown_invoice');
    expect(await invoiceOf(sale.id)).toMatchObject({ status: 'authorized', error_message: null, updated_at: before.updated_at });
  });

  it('an event naming another payment than the invoice\'s is a mismatch and changes nothing', async () => {
    const sale = await paidSale();
    await runJob(afterGuarantee());
    const before = (await invoiceOf(sale.id))!;
    const invoice = { ...fake.invoice(before.provider_invoice_id!), payment: 'pay_outra_cobranca' };
    const r = await webhook({ id: `evt_${randomUUID()}`, event: 'INVOICE_CANCELED', invoice }, { token: DEMO.webhookToken });
    expect(r.body.outcome).toBe('mismatch');
    expect((await invoiceOf(sale.id))!.status).toBe('authorized');
  });
});

describe('who reads invoices', () => {
  it('a student reads only their own invoices; "Minhas compras" lists the purchase with its PDF and XML', async () => {
    const sale = await paidSale();
    await runJob(afterGuarantee());
    const row = (await invoiceOf(sale.id))!;

    const own = await clients.aluna.from('invoices').select('id, status, pdf_url').eq('id', row.id);
    expect(own.data).toEqual([{ id: row.id, status: 'authorized', pdf_url: row.pdf_url }]);
    const { data: purchases, error } = await clients.aluna.rpc('my_purchases', {});
    expect(error).toBeNull();
    expect((purchases as Record<string, unknown>[]).find((p) => p.payment_id === sale.id)).toMatchObject({
      invoice_status: 'authorized',
      invoice_pdf_url: row.pdf_url,
      invoice_xml_url: row.xml_url,
      items: [{ kind: 'course', title: 'Marketing Digital', course_id: COURSE.marketing }],
    });

    // Attack: another student of the school, and staff of another school, read nothing of it.
    expect((await clients.aluno.from('invoices').select('id').eq('id', row.id)).data).toEqual([]);
    expect(((await clients.aluno.rpc('my_purchases', {})).data as { payment_id: string }[]).map((p) => p.payment_id)).not.toContain(sale.id);
    expect((await clients.rival.from('invoices').select('id').eq('id', row.id)).data).toEqual([]);
    expect((await clients.rival.rpc('admin_invoices', { p_school_id: SCHOOL.demo })).error?.code).toBe('42501');
    // Nobody writes an invoice through the API, not even staff of its school.
    const write = await clients.admin.from('invoices').update({ status: 'cancelled' }).eq('id', row.id).select();
    expect(write.data ?? []).toEqual([]);
    expect((await invoiceOf(sale.id))!.status).toBe('authorized');
    // Control: staff of the school read it.
    expect((await clients.admin.from('invoices').select('id').eq('id', row.id)).data).toEqual([{ id: row.id }]);
  });
});

describe('errors, Emitir novamente and refunds', () => {
  it('an error keeps the municipality\'s message, is listed in "Notas com erro", and Emitir novamente issues once', async () => {
    const message = 'Código do serviço 07285 não permitido para o contribuinte (E160).';
    fake.setInvoiceOutcome(DEMO.apiKey, { error: message });
    const sale = await paidSale();
    await runJob(afterGuarantee());
    const failed = (await invoiceOf(sale.id))!;
    expect(failed).toMatchObject({ status: 'error', error_message: message });
    const { data: errors } = await clients.admin.rpc('admin_invoices', { p_status: 'error' });
    expect((errors as Record<string, unknown>[]).find((i) => i.id === failed.id)).toMatchObject({ error_message: message, payment_id: sale.id, buyer_email: 'aluna@escola-demo.com.br' });

    // Attack: staff of another school cannot retry it (nothing changes); a student cannot either.
    expect((await clients.rival.rpc('retry_invoice', { p_invoice_id: failed.id })).error?.code).toBe('42501');
    expect((await clients.aluna.rpc('retry_invoice', { p_invoice_id: failed.id })).error?.code).toBe('42501');
    expect((await invoiceOf(sale.id))!.status).toBe('error');

    // Fixed at the municipality; two clicks at once: one is accepted.
    fake.setInvoiceOutcome(DEMO.apiKey, { error: null });
    const clicks = await Promise.all([
      clients.admin.rpc('retry_invoice', { p_invoice_id: failed.id }),
      clients.admin.rpc('retry_invoice', { p_invoice_id: failed.id }),
    ]);
    expect(clicks.filter((c) => !c.error)).toHaveLength(1);
    expect(clicks.find((c) => c.error)!.error!.message).toBe('Só notas com erro podem ser emitidas novamente.');
    await Promise.all([runJob(), runJob()]);
    expect(await invoiceOf(sale.id)).toMatchObject({ status: 'authorized', error_message: null, provider_invoice_id: failed.provider_invoice_id });
    expect(invoiceCreates(sale.asaasId)).toHaveLength(1);
    expect(atAsaas(sale.asaasId)).toHaveLength(1);
    expect(fake.requests.filter((r) => r.path === `/api/v3/invoices/${failed.provider_invoice_id}/authorize`)).toHaveLength(2);
    // An authorized invoice is not "issued again".
    expect((await clients.admin.rpc('retry_invoice', { p_invoice_id: failed.id })).error?.code).toBe('22023');
  });

  it('a refund within the guarantee drops the invoice before it reaches Asaas', async () => {
    const sale = await paidSale();
    await fake.sendEvent(sale.asaasId, 'PAYMENT_REFUNDED');
    expect((await invoiceOf(sale.id))!.status).toBe('not_issued');
    await runJob(afterGuarantee());
    expect(invoiceCreates(sale.asaasId)).toHaveLength(0);
    expect((await invoiceOf(sale.id))!.status).toBe('not_issued');
  });

  it('a refund after the invoice was issued cancels it at Asaas', async () => {
    const sale = await paidSale();
    await runJob(afterGuarantee());
    const issued = (await invoiceOf(sale.id))!;
    await fake.sendEvent(sale.asaasId, 'PAYMENT_REFUNDED');
    expect((await invoiceOf(sale.id))!.cancel_requested_at).not.toBeNull();
    await runJob(afterGuarantee());
    expect(fake.requests.filter((r) => r.path === `/api/v3/invoices/${issued.provider_invoice_id}/cancel`)).toHaveLength(1);
    expect(fake.invoice(issued.provider_invoice_id!)!.status).toBe('CANCELED');
    const cancelled = (await invoiceOf(sale.id))!;
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.cancelled_at).not.toBeNull();
    // Its "Nota fiscal disponível", not sent yet, is not sent any more.
    const { data: mail } = await service.from('email_outbox').select('status, last_error').eq('idempotency_key', `invoice:${issued.id}:authorized`).single();
    expect(mail).toEqual({ status: 'skipped', last_error: 'A nota fiscal foi cancelada antes do envio.' });
    // A chargeback event after it asks nothing more.
    await fake.sendEvent(sale.asaasId, 'PAYMENT_CHARGEBACK_REQUESTED');
    await runJob(afterGuarantee());
    expect(fake.requests.filter((r) => r.path === `/api/v3/invoices/${issued.provider_invoice_id}/cancel`)).toHaveLength(1);
  });

  it('a refund while the municipality has the invoice waits for its answer, then cancels it', async () => {
    const sale = await paidSale();
    await runJob(afterGuarantee());
    const issued = (await invoiceOf(sale.id))!;
    // As if INVOICE_AUTHORIZED had not arrived yet: the invoice is still at the municipality.
    await service.from('invoices').update({ status: 'synchronized' }).eq('id', issued.id);
    await fake.sendEvent(sale.asaasId, 'PAYMENT_REFUNDED');
    await runJob(afterGuarantee());
    const cancels = () => fake.requests.filter((r) => r.path === `/api/v3/invoices/${issued.provider_invoice_id}/cancel`);
    expect(cancels()).toHaveLength(0);
    await fake.sendInvoiceEvent(issued.provider_invoice_id!, 'INVOICE_AUTHORIZED');
    await runJob(afterGuarantee());
    expect(cancels()).toHaveLength(1);
    expect((await invoiceOf(sale.id))!.status).toBe('cancelled');
  });

  it('a cancellation the municipality denies is recorded as "Cancelamento negado pela prefeitura" with its reason', async () => {
    fake.setInvoiceOutcome(DEMO.apiKey, { denyCancellation: true });
    const sale = await paidSale();
    await runJob(afterGuarantee());
    await fake.sendEvent(sale.asaasId, 'PAYMENT_REFUNDED');
    await runJob(afterGuarantee());
    expect(await invoiceOf(sale.id)).toMatchObject({
      status: 'cancellation_denied',
      error_message: 'Cancelamento negado pela prefeitura: O prazo para cancelamento desta nota pela prefeitura terminou.',
    });
  });

  it('the period totals count issued, cancelled, with error and the ISS; another school\'s staff are refused', async () => {
    const period = { p_from: new Date(Date.now() - DAY).toISOString().slice(0, 10), p_to: new Date(Date.now() + DAY).toISOString().slice(0, 10) };
    const totals = async () => {
      const { data, error } = await clients.admin.rpc('admin_invoice_totals', period);
      expect(error).toBeNull();
      return data as { issued: number; issued_value: number; cancelled: number; errors: number; waiting: number; iss: number };
    };
    const before = await totals();
    const issued = await paidSale({ value: 297 });
    const refunded = await paidSale({ value: 97 });
    await runJob(afterGuarantee());
    await fake.sendEvent(refunded.asaasId, 'PAYMENT_REFUNDED');
    await runJob(afterGuarantee());
    fake.setInvoiceOutcome(DEMO.apiKey, { error: 'Inscrição municipal inválida.' });
    const failed = await paidSale({ value: 150 });
    await runJob(afterGuarantee());
    expect([(await invoiceOf(issued.id))!.status, (await invoiceOf(refunded.id))!.status, (await invoiceOf(failed.id))!.status]).toEqual(['authorized', 'cancelled', 'error']);
    const after = await totals();
    expect({
      issued: after.issued - before.issued,
      issued_value: Math.round((after.issued_value - before.issued_value) * 100) / 100,
      cancelled: after.cancelled - before.cancelled,
      errors: after.errors - before.errors,
      iss: Math.round((after.iss - before.iss) * 100) / 100,
    }).toEqual({ issued: 1, issued_value: 297, cancelled: 1, errors: 1, iss: 5.94 });
    // Attack: another school's staff get nothing; a period past 366 days is refused.
    expect((await clients.rival.rpc('admin_invoice_totals', { p_school_id: SCHOOL.demo })).error?.code).toBe('42501');
    expect((await clients.admin.rpc('admin_invoice_totals', { p_from: '2025-01-01', p_to: '2026-12-31' })).error?.code).toBe('22023');
  });
});

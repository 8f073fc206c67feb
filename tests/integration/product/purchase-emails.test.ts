// Issue 46: the e-mails of a purchase, end to end in real Deno: create-asaas-charge and the fake Asaas,
// asaas-webhook, the outbox, send-emails over SMTP, the local inbox.
// - Item 2: a message whose reason passed before the send run (the PIX paid meanwhile, the enrollment
//   closed, the kind stopped) is not sent; the outbox says 'skipped' and why.
// - Item 3: a course, a course with its order bump and a plan each get their own words; item 4: the
//   school's name as sender, header and signature, and no word that assumes the student's gender.
import { describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { ANON_KEY, SERVICE_ROLE_KEY, useBackend } from '../harness.ts';
import { inbox } from '../auth-helpers.ts';
import { COURSE, EMAIL, PLAN, SCHOOL } from '../rls/seed.ts';

const SITE = 'http://localhost:5999';
const PASSWORD = 'senha-compra-123';

const backend = useBackend({ fakeAsaas: true, functionSecrets: { SITE_URL: SITE } });
const fake = backend.asaas;
const service = backend.service();
const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => (await backend.server.ctx.engine.query<T>(text, params)).rows;

const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A new student of the demo school who has signed in (so an enrollment writes "Nova matrícula"). */
async function buyer(name: string) {
  const email = `compra.${tag()}@exemplo.com.br`;
  const created = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { name, school_id: SCHOOL.demo } });
  if (created.error) throw created.error;
  return { id: created.data.user!.id, email, name, client: await backend.signIn(email, PASSWORD) };
}

/** The checkout's call: a charge of `course` (and its bump) by PIX or boleto; the payment's ids. */
async function checkout(who: { client: SupabaseClient; name: string; email: string }, course: string, opts: { bump?: boolean; billing?: 'PIX' | 'BOLETO' } = {}) {
  const { data } = await who.client.auth.getSession();
  const res = await fetch(`${backend.url}/functions/v1/create-asaas-charge`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', apikey: ANON_KEY, Authorization: `Bearer ${data.session!.access_token}` },
    body: JSON.stringify({
      course_id: course,
      billing_type: opts.billing ?? 'PIX',
      with_bump: opts.bump ?? false,
      customer: { name: who.name, email: who.email, cpfCnpj: '529.982.247-25', phone: '(11) 98888-7777' },
    }),
  });
  const body = (await res.json()) as { invoiceUrl: string; payment_id: string };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return { paymentId: body.payment_id, asaasId: body.invoiceUrl.split('/i/')[1]! };
}

/** The buyer pays on Asaas's invoice page ("Simular pagamento" of the fake): PAYMENT_CONFIRMED is delivered before this returns. */
async function pay(asaasId: string) {
  const res = await fetch(`${fake.url}/i/${asaasId}/pay`, { method: 'POST', redirect: 'manual' });
  expect(res.status).toBe(303);
  await fake.idle();
}

/** One send-emails run, as the schedule makes it. */
async function sendRun() {
  const res = await fetch(`${backend.url}/functions/v1/send-emails`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${SERVICE_ROLE_KEY}` },
    body: JSON.stringify({ limit: 200 }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { claimed: number; sent: number; retried: number; failed: number };
}

const outbox = (user: string) =>
  sql<{ kind: string; status: string; last_error: string | null }>('select kind, status, last_error from public.email_outbox where user_id = $1 order by created_at, kind', [user]);
const subjects = async (email: string) => (await inbox(backend, email)).map((m) => m.subject);

describe('a message whose reason passed before the send run is not sent', () => {
  it('a PIX paid before the send run: no "Pagamento pendente", only the confirmation; an unpaid PIX still gets it', async () => {
    const mariana = await buyer('Mariana Souza');
    const paid = await checkout(mariana, COURSE.marketing);
    await pay(paid.asaasId);
    // Control: a PIX nobody paid yet.
    const joao = await buyer('João Lima');
    await checkout(joao, COURSE.marketing);

    const run = await sendRun();
    expect(run).toMatchObject({ retried: 0, failed: 0 });
    const inboxMariana = await subjects(mariana.email);
    expect(inboxMariana.filter((s) => s.startsWith('Pagamento pendente'))).toEqual([]);
    expect(inboxMariana.filter((s) => s.startsWith('Pagamento confirmado'))).toHaveLength(1);
    expect(await outbox(mariana.id)).toContainEqual({ kind: 'payment_pending', status: 'skipped', last_error: 'O pagamento já foi confirmado.' });
    expect((await outbox(mariana.id)).filter((m) => m.status !== 'skipped').map((m) => m.status)).toEqual(['sent', 'sent']);

    expect((await subjects(joao.email)).filter((s) => s.startsWith('Pagamento pendente'))).toHaveLength(1);
    expect(await outbox(joao.id)).toEqual([{ kind: 'payment_pending', status: 'sent', last_error: null }]);
    // The skipped one never comes back.
    expect((await sendRun()).claimed).toBe(0);
  });

  it('an enrollment closed or a kind stopped before the send run: skipped with the reason; the rest go', async () => {
    const ana = await buyer('Ana Reis');
    const enroll = async (course: string) =>
      (await sql<{ id: string }>("insert into public.enrollments (user_id, course_id, status) values ($1, $2, 'ACTIVE') returning id", [ana.id, course]))[0]!.id;
    const closed = await enroll(COURSE.excel);
    await enroll(COURSE.marketing);
    await sql("update public.enrollments set status = 'PAUSED' where id = $1", [closed]);
    // A certificate e-mail queued, then the kind stopped from the profile.
    await service.rpc('enqueue_email', { p_school_id: SCHOOL.demo, p_user_id: ana.id, p_to: ana.email, p_kind: 'certificate_available', p_key: `certificate:${crypto.randomUUID()}`, p_payload: { course_title: 'Excel' } });
    await sql("insert into public.email_unsubscribes (user_id, kind) values ($1, 'certificate_available')", [ana.id]);

    await sendRun();
    const rows = await outbox(ana.id);
    expect(rows).toContainEqual({ kind: 'new_enrollment', status: 'skipped', last_error: 'A matrícula não está mais ativa.' });
    expect(rows).toContainEqual({ kind: 'new_enrollment', status: 'sent', last_error: null });
    expect(rows).toContainEqual({ kind: 'certificate_available', status: 'skipped', last_error: 'O aluno pediu para não receber este tipo de e-mail.' });
    expect(await subjects(ana.email)).toHaveLength(1);
  });
});

describe('each kind of purchase gets its own words', () => {
  const CARD = { holderName: 'MARIANA SOUZA', number: '5162306219378829', expiryMonth: '05', expiryYear: '2031', ccv: '8317' };
  const HOLDER = { name: 'Mariana Souza', email: 'mariana@exemplo.com.br', cpfCnpj: '529.982.247-25', postalCode: '01310-100', addressNumber: '1000', phone: '(11) 98888-7777' };
  const mail = async (email: string, subject: string) => {
    const found = (await inbox(backend, email)).filter((m) => m.subject === subject);
    expect(found.map((m) => m.subject), `${subject} in ${JSON.stringify((await inbox(backend, email)).map((m) => m.subject))}`).toEqual([subject]);
    return found[0]!;
  };
  /** What every message shows: the school's name (not the member area's title) and no gendered word. */
  const fromTheSchool = (m: { from: string | null; html: string | null; text: string; subject: string }) => {
    expect(m.from).toContain('Escola Demo');
    expect(m.html).toContain('>Escola Demo<');
    expect(`${m.subject} ${m.html}`).not.toMatch(/Área de Membros Demo|matriculad[oa]|bem-vind[oa]/i);
    expect(m.text).toMatch(/^--\nEscola Demo$/m);
  };
  const refund = async (paymentId: string) => {
    const admin = await backend.signIn(EMAIL.adminDemo);
    const { data } = await admin.auth.getSession();
    const res = await fetch(`${backend.url}/functions/v1/refund-asaas-payment`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', apikey: ANON_KEY, Authorization: `Bearer ${data.session!.access_token}` },
      body: JSON.stringify({ payment_id: paymentId, reason: 'Pedido da aluna' }),
    });
    expect(res.status).toBe(200);
    await fake.idle();
  };

  it('a course with its order bump names both courses; a course names one', async () => {
    const mariana = await buyer('Mariana Souza');
    const both = await checkout(mariana, COURSE.marketing, { bump: true });
    await sendRun();
    const pending = await mail(mariana.email, 'Pagamento pendente: Marketing Digital para Pequenos Negócios e Excel Essencial para o Trabalho');
    expect(pending.text).toContain('Seu pedido dos cursos Marketing Digital para Pequenos Negócios e Excel Essencial para o Trabalho está aguardando o pagamento pelo PIX. Os dois cursos são liberados assim que o pagamento for confirmado.');
    expect(pending.text).not.toMatch(/\+|pedido do curso/);
    fromTheSchool(pending);

    await pay(both.asaasId);
    await sendRun();
    const receipt = await mail(mariana.email, 'Pagamento confirmado: Marketing Digital para Pequenos Negócios e Excel Essencial para o Trabalho');
    expect(receipt.text).toContain('Recebemos o seu pagamento e os cursos Marketing Digital para Pequenos Negócios e Excel Essencial para o Trabalho já estão liberados.');
    expect(receipt.text).toContain('Cursos: Marketing Digital para Pequenos Negócios e Excel Essencial para o Trabalho');
    expect(receipt.text).toContain(`Acessar meus cursos: ${SITE}/escola-demo`);
    fromTheSchool(receipt);
    for (const title of ['Marketing Digital para Pequenos Negócios', 'Excel Essencial para o Trabalho']) {
      const enrolled = await mail(mariana.email, `Matrícula feita: ${title}`);
      expect(enrolled.text).toMatch(/^Sua matrícula foi feita\n\nOlá, Mariana!/);
      fromTheSchool(enrolled);
    }

    await refund(both.paymentId);
    await sendRun();
    const refunded = await mail(mariana.email, 'Pagamento estornado: Marketing Digital para Pequenos Negócios e Excel Essencial para o Trabalho');
    expect(refunded.text).toContain('O pagamento dos cursos Marketing Digital para Pequenos Negócios e Excel Essencial para o Trabalho foi estornado e o seu acesso aos dois cursos foi pausado.');

    // One course alone.
    const joao = await buyer('João Lima');
    const one = await checkout(joao, COURSE.marketing);
    await pay(one.asaasId);
    await sendRun();
    const single = await mail(joao.email, 'Pagamento confirmado: Marketing Digital para Pequenos Negócios');
    expect(single.text).toContain('Recebemos o seu pagamento e o curso Marketing Digital para Pequenos Negócios já está liberado.');
    expect(single.text).toContain(`Acessar o curso: ${SITE}/course/${COURSE.marketing}`);
    fromTheSchool(single);
  });

  it('a plan: "Seu Plano Completo está ativo", the member area, and each course it opens says it is the plan\'s', async () => {
    const bia = await buyer('Beatriz Alves');
    const { data } = await bia.client.auth.getSession();
    const res = await fetch(`${backend.url}/functions/v1/create-asaas-subscription`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', apikey: ANON_KEY, Authorization: `Bearer ${data.session!.access_token}` },
      body: JSON.stringify({ plan_id: PLAN.completo, billing_type: 'CREDIT_CARD', customer: { ...HOLDER, email: bia.email }, creditCard: CARD, creditCardHolderInfo: HOLDER }),
    });
    expect(res.status).toBe(200);
    await fake.idle();
    await sendRun();
    const receipt = await mail(bia.email, 'Pagamento confirmado: Plano Completo');
    expect(receipt.text).toContain('Recebemos o seu pagamento. Seu Plano Completo está ativo e os cursos dele já estão liberados na sua área de membros.');
    expect(receipt.text).toContain('Plano: Plano Completo\nAssinatura: Mensal');
    expect(receipt.text).toContain(`Ir para a área de membros: ${SITE}/escola-demo`);
    expect(receipt.text).not.toMatch(/curso Plano|Acessar o curso/);
    fromTheSchool(receipt);
    const enrolled = await mail(bia.email, 'Novo curso no seu Plano Completo: Excel Essencial para o Trabalho');
    expect(enrolled.text).toContain('O curso Excel Essencial para o Trabalho faz parte do seu Plano Completo e já está na sua área de membros.');
    fromTheSchool(enrolled);

    const invoice = (await sql<{ id: string }>("select id from public.payments where user_id = $1 and subscription_id is not null", [bia.id]))[0]!;
    await refund(invoice.id);
    await sendRun();
    const refunded = await mail(bia.email, 'Pagamento estornado: Plano Completo');
    expect(refunded.text).toContain('O pagamento da sua assinatura do Plano Completo foi estornado e o acesso aos cursos do plano foi pausado.');
  });
});

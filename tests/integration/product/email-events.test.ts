// Issue 22: which events write which e-mails into the outbox, checked by the rows they leave: an account
// made by staff (Acesso liberado, never its password), a course opened for someone who used the platform
// (Nova matrícula), a PIX charge (Pagamento pendente), its payment through the fake Asaas (Pagamento
// confirmado, once however often Asaas repeats it), a refund (Pagamento estornado), a certificate.
import { describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { ANON_KEY, useBackend } from '../harness.ts';
import { COURSE, EMAIL, SCHOOL, USER } from '../rls/seed.ts';
import { uniqueEmail } from '../auth-helpers.ts';

const CUSTOMER = { name: 'Aluna Teste', email: 'aluna@escola-demo.com.br', cpfCnpj: '529.982.247-25', phone: '(11) 98888-7777' };
const backend = useBackend({ fakeAsaas: true, functionSecrets: { SITE_URL: 'http://localhost:5999' } });
const fake = backend.asaas;
const service = backend.service();
const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => (await backend.server.ctx.engine.query<T>(text, params)).rows;
type Outbox = { kind: string; to_email: string; user_id: string | null; payload: Record<string, unknown> };
const outbox = (key: string) => sql<Outbox>('select kind, to_email, user_id::text as user_id, payload from public.email_outbox where idempotency_key = $1', [key]);
const outboxLike = (pattern: string) => sql<Outbox & { idempotency_key: string }>('select kind, idempotency_key, payload from public.email_outbox where idempotency_key like $1 order by created_at', [pattern]);

async function callAs(client: SupabaseClient, fn: string, body: unknown) {
  const { data } = await client.auth.getSession();
  const res = await fetch(`${backend.url}/functions/v1/${fn}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', apikey: ANON_KEY, Authorization: `Bearer ${data.session!.access_token}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('e-mail events', () => {
  it('a student created by staff gets Acesso liberado; the payload holds no password, the answer still does', async () => {
    const admin = await backend.signIn(EMAIL.adminDemo);
    const email = uniqueEmail('novo-aluno');
    const created = await callAs(admin, 'admin-create-student', { name: 'Novo Aluno', email, cpf: '529.982.247-25' });
    expect(created.status).toBe(201);
    expect(created.body.temporary_password).toBe('52998224725');
    const rows = await outbox(`account:${created.body.user_id}`);
    expect(rows).toEqual([{ kind: 'access_granted', to_email: email, user_id: created.body.user_id, payload: { name: 'Novo Aluno' } }]);
    expect(JSON.stringify(rows)).not.toContain('52998224725');

    // Enrolled right after (the CSV import's second step): no Nova matrícula for an account that
    // never signed in; its access e-mail lists the course when it is sent.
    const { data: enrollment } = await admin.from('enrollments').insert({ user_id: created.body.user_id as string, course_id: COURSE.excel }).select('id').single();
    expect(await outbox(`enrollment:${enrollment!.id}`)).toEqual([]);
  });

  // The "Acesso liberado" e-mail lists the student's courses, read when it is sent; the every-minute
  // sender could run between creating an account and enrolling it, so both happen before the queueing.
  const enrolledBeforeQueued = async (userId: string) => {
    const [row] = await sql<{ enrolled: string; queued: string }>(
      `select e.created_at::text as enrolled, o.created_at::text as queued from public.enrollments e
         join public.email_outbox o on o.idempotency_key = 'account:' || e.user_id::text
        where e.user_id = $1 and e.course_id = $2`,
      [userId, COURSE.excel],
    );
    expect(row, 'an enrollment and an access e-mail').toBeDefined();
    expect(Date.parse(row!.enrolled)).toBeLessThan(Date.parse(row!.queued));
  };

  it('the CSV import’s course is enrolled before Acesso liberado is queued; another school’s course creates nothing', async () => {
    const admin = await backend.signIn(EMAIL.adminDemo);
    const created = await callAs(admin, 'admin-create-student', { name: 'Importada', email: uniqueEmail('importada'), course_id: COURSE.excel });
    expect(created).toMatchObject({ status: 201, body: { course_id: COURSE.excel } });
    await enrolledBeforeQueued(created.body.user_id as string);

    const email = uniqueEmail('importada-rival');
    const refused = await callAs(admin, 'admin-create-student', { name: 'Rival', email, course_id: COURSE.rival });
    expect(refused).toMatchObject({ status: 400, body: { field: 'course_id' } });
    expect(await sql('select 1 from auth.users where email = $1', [email])).toEqual([]);
  });

  it('student-webhook enrolls a new buyer before Acesso liberado is queued', async () => {
    const res = await fetch(`${backend.url}/functions/v1/student-webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'x-webhook-secret': 'whsec_escola_demo_local_0123456789abcdef' },
      body: JSON.stringify({ email: uniqueEmail('comprador'), name: 'Comprador', school_id: SCHOOL.demo, course_id: COURSE.excel }),
    });
    const body = (await res.json()) as { user_id: string };
    expect(res.status).toBe(201);
    await enrolledBeforeQueued(body.user_id);
  });

  it('Nova matrícula for a student who used the platform, once; a rolled-back enrollment writes nothing', async () => {
    await backend.signIn(EMAIL.aluna); // she has signed in: last_sign_in_at is set
    await service.from('enrollments').delete().eq('user_id', USER.aluna).eq('course_id', COURSE.excel);
    const db = backend.server.ctx.engine;
    await db.transaction(async (tx) => {
      await tx.query(`insert into public.enrollments (user_id, course_id) values ($1, $2)`, [USER.aluna, COURSE.excel]);
      throw new Error('rollback');
    }).catch(() => undefined);
    expect(await sql("select 1 from public.email_outbox where kind = 'new_enrollment' and user_id = $1", [USER.aluna])).toEqual([]);

    const { data } = await service.from('enrollments').insert({ user_id: USER.aluna, course_id: COURSE.excel }).select('id').single();
    const [row] = await outbox(`enrollment:${data!.id}`);
    expect(row).toMatchObject({ kind: 'new_enrollment', to_email: EMAIL.aluna, payload: { course_id: COURSE.excel, course_title: 'Excel Essencial para o Trabalho' } });
    // Paused and active again is not a new enrollment.
    await service.from('enrollments').update({ status: 'PAUSED' }).eq('id', data!.id);
    await service.from('enrollments').update({ status: 'ACTIVE' }).eq('id', data!.id);
    expect(await sql("select 1 from public.email_outbox where kind = 'new_enrollment' and user_id = $1", [USER.aluna])).toHaveLength(1);
  });

  it('a PIX charge: Pagamento pendente with the invoice; paid: Pagamento confirmado once, even when Asaas repeats; refunded: estornado', async () => {
    await service.from('enrollments').delete().eq('user_id', USER.aluna).eq('course_id', COURSE.marketing);
    const aluna = await backend.signIn(EMAIL.aluna);
    const charge = await callAs(aluna, 'create-asaas-charge', { course_id: COURSE.marketing, billing_type: 'PIX', customer: CUSTOMER });
    expect(charge.status).toBe(200);
    const id = String(charge.body.payment_id);
    const [pending] = await outbox(`payment:${id}:pending`);
    expect(pending).toMatchObject({ kind: 'payment_pending', to_email: EMAIL.aluna, payload: { method: 'PIX', amount: 297, invoice_url: charge.body.invoiceUrl } });
    // The PIX copia e cola Asaas gives for this charge.
    const asaasPayment = String(charge.body.invoiceUrl).split('/i/')[1]!;
    expect(pending!.payload.pix_code).toMatch(new RegExp(`^00020126580014br\\.gov\\.bcb\\.pix0136${asaasPayment}`));

    const asaasId = String(charge.body.invoiceUrl).split('/i/')[1]!;
    await fetch(`${fake.url}/i/${asaasId}/pay`, { method: 'POST', redirect: 'manual' });
    await expect.poll(async () => (await outboxLike(`payment:${id}:%`)).map((r) => r.kind)).toEqual(['payment_pending', 'payment_confirmed']);
    // RECEIVED after CONFIRMED (Asaas sends both) is the same payment: no second receipt.
    await service.from('payments').update({ status: 'RECEIVED' }).eq('id', id);
    const [confirmed] = await outbox(`payment:${id}:confirmed`);
    expect(confirmed!.payload).toMatchObject({ course_id: COURSE.marketing, method: 'PIX', amount: 297 });
    expect((await outboxLike(`payment:${id}:%`)).length).toBe(2);

    await service.from('payments').update({ status: 'REFUNDED' }).eq('id', id);
    expect((await outbox(`payment:${id}:refunded`))[0]).toMatchObject({ kind: 'payment_refunded', payload: { reason: 'refund' } });
  });

  it('a boleto: Pagamento pendente with its digitable line, PDF and due date', async () => {
    await service.from('enrollments').delete().eq('user_id', USER.aluna).eq('course_id', COURSE.marketing);
    const aluna = await backend.signIn(EMAIL.aluna);
    const charge = await callAs(aluna, 'create-asaas-charge', { course_id: COURSE.marketing, billing_type: 'BOLETO', customer: CUSTOMER });
    expect(charge.status).toBe(200);
    const [pending] = await outbox(`payment:${charge.body.payment_id}:pending`);
    expect(pending!.payload).toMatchObject({ method: 'BOLETO', boleto_line: expect.stringMatching(/^\d{47}$/), boleto_url: expect.stringContaining('/b/'), due_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
  });

  it('a certificate issued: Certificado disponível with its code', async () => {
    const [cert] = await sql<{ id: string }>(
      `insert into public.certificates (code, user_id, course_id, school_id, student_name, course_title, school_name, completed_at, workload_hours)
       values ('ABCD-2345-EFGH-JKMN-PQRS-TVWX', $1, $2, $3, 'Carlos Aluno', 'Excel Essencial para o Trabalho', 'Escola Demo', now(), 12) returning id::text as id`,
      [USER.aluno, COURSE.excel, SCHOOL.demo],
    );
    expect((await outbox(`certificate:${cert!.id}`))[0]).toMatchObject({ kind: 'certificate_available', to_email: EMAIL.aluno, payload: { code: 'ABCD-2345-EFGH-JKMN-PQRS-TVWX' } });
  });
});

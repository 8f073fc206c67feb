// Issue 22's sender end to end: outbox → send-emails (real Deno) → SMTP → local-supabase's inbox. Each
// message arrives once with its school's branding, the access e-mail's link leads to choosing a
// password, a provider's refusal is retried or kept as failed, and only the service role may drain.
import { describe, expect, it } from 'vitest';
import { ANON_KEY, SERVICE_ROLE_KEY, useBackend } from '../harness.ts';
import { inbox } from '../auth-helpers.ts';
import { EMAIL, SCHOOL, USER } from '../rls/seed.ts';

const SITE = 'http://localhost:5999';
const backend = useBackend({ functionSecrets: { SITE_URL: SITE } });
const service = backend.service();
const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => (await backend.server.ctx.engine.query<T>(text, params)).rows;

async function enqueue(key: string, kind: string, to: string, user: string | null, payload: object = {}) {
  const { error } = await service.rpc('enqueue_email', { p_school_id: SCHOOL.demo, p_user_id: user, p_to: to, p_kind: kind, p_key: key, p_payload: payload });
  if (error) throw error;
}
async function drain(key = SERVICE_ROLE_KEY, body: unknown = {}) {
  const res = await fetch(`${backend.url}/functions/v1/send-emails`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', apikey: ANON_KEY, Authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const outbox = async (key: string) =>
  (await sql<{ status: string; attempts: number; last_error: string | null; provider_message_id: string | null }>('select status, attempts, last_error, provider_message_id from public.email_outbox where idempotency_key = $1', [key]))[0]!;

describe('send-emails', () => {
  it('delivers Acesso liberado with the school branding, the courses and a link that leads to choosing a password', async () => {
    await enqueue('it:access', 'access_granted', EMAIL.aluno, USER.aluno, { name: 'Carlos Aluno' });
    expect(await drain()).toEqual({ status: 200, body: { claimed: 1, sent: 1, retried: 0, failed: 0 } });
    expect(await outbox('it:access')).toMatchObject({ status: 'sent', attempts: 1, last_error: null });

    const [mail, ...others] = (await inbox(backend, EMAIL.aluno)).filter((m) => m.subject === 'Escola Demo: seu acesso foi liberado');
    expect(others).toEqual([]);
    expect(mail!.from).toContain('Escola Demo');
    expect(mail!.text).toContain('Olá, Carlos!');
    expect(mail!.text).toContain('com acesso ao curso Excel Essencial para o Trabalho.');
    expect(mail!.html).toContain('wa.me/');
    expect(mail!.text).not.toMatch(/senha (temporária|inicial)|Aluno@2026|senha123/i);
    const link = mail!.links.find((l) => l.startsWith(`${SITE}/acesso#token=`));
    expect(link).toBeDefined();

    // The page's call with that token: GoTrue's recovery link to the school's login page.
    const token = new URLSearchParams(link!.split('#')[1]).get('token');
    const res = await fetch(`${backend.url}/functions/v1/access-link`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', apikey: ANON_KEY, Authorization: `Bearer ${ANON_KEY}` },
      body: JSON.stringify({ token }),
    });
    expect(res.status).toBe(200);
    const action = new URL(((await res.json()) as { action_link: string }).action_link);
    expect(action.searchParams.get('type')).toBe('recovery');
    expect(action.searchParams.get('redirect_to')).toBe(`${SITE}/escola-demo`);
  });

  it('a temporary refusal is tried again later; a permanent one is kept as failed with the answer; the others still go', async () => {
    await enqueue('it:temp', 'new_enrollment', 'smtp-fail-451@example.com', null, { course_title: 'Excel' });
    await enqueue('it:perm', 'new_enrollment', 'smtp-fail-550@example.com', null, { course_title: 'Excel' });
    await enqueue('it:ok', 'payment_confirmed', EMAIL.aluno, USER.aluno, { course_title: 'Excel Essencial para o Trabalho', amount: 297, method: 'PIX', paid_at: '2026-11-26T12:00:00Z', course_id: 'c0000000-0000-4000-8000-000000000001' });
    expect(await drain()).toEqual({ status: 200, body: { claimed: 3, sent: 1, retried: 1, failed: 1 } });
    expect(await outbox('it:temp')).toMatchObject({ status: 'queued', attempts: 1, last_error: expect.stringContaining('451') });
    expect(await outbox('it:perm')).toMatchObject({ status: 'failed', attempts: 1, last_error: expect.stringContaining('550') });
    expect(await outbox('it:ok')).toMatchObject({ status: 'sent', provider_message_id: expect.stringMatching(/^<.+>$/) });
    const receipt = (await inbox(backend, EMAIL.aluno)).find((m) => m.subject === 'Pagamento confirmado: Excel Essencial para o Trabalho');
    expect(receipt?.text).toMatch(/Valor: R\$\s297,00/);
    // Not due again before its backoff: the next run takes nothing.
    expect((await drain()).body.claimed).toBe(0);
  });

  it('two runs at once deliver every message exactly once', async () => {
    const to = 'concorrencia@example.com';
    for (let i = 0; i < 12; i++) await enqueue(`it:race:${i}`, 'new_enrollment', to, null, { course_title: `Curso ${i}` });
    const [a, b] = await Promise.all([drain(SERVICE_ROLE_KEY, { limit: 8 }), drain(SERVICE_ROLE_KEY, { limit: 8 })]);
    expect(Number(a.body.sent) + Number(b.body.sent)).toBe(12);
    const subjects = (await inbox(backend, to)).map((m) => m.subject).sort();
    expect(subjects).toEqual(Array.from({ length: 12 }, (_, i) => `Matrícula feita: Curso ${i}`).sort());
  });

  it('only the service role drains the outbox', async () => {
    await enqueue('it:guard', 'new_enrollment', EMAIL.aluno, USER.aluno, { course_title: 'Excel' });
    const aluno = await backend.signIn(EMAIL.aluno);
    const { data } = await aluno.auth.getSession();
    for (const key of [ANON_KEY, data.session!.access_token, 'forged']) expect((await drain(key)).status).toBe(401);
    expect(await outbox('it:guard')).toMatchObject({ status: 'queued', attempts: 0 });
    expect((await drain(SERVICE_ROLE_KEY, { limit: 0 })).status).toBe(400);
  });
});

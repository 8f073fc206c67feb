// Issue 41, "also fix": send-emails delivers a message at most once. The failure is injected where it hurts:
// the SMTP server has accepted the message and the record of it (complete_email) fails. Before the fix the
// error path queued the message again and the next run delivered it a second time.
import { afterEach, describe, expect, it } from 'vitest';
import { ANON_KEY, SERVICE_ROLE_KEY, useBackend } from '../harness.ts';
import { inbox } from '../auth-helpers.ts';
import { EMAIL, SCHOOL } from '../rls/seed.ts';

const backend = useBackend({ functionSecrets: { SITE_URL: 'http://localhost:5999' } });
const service = backend.service();
const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => (await backend.server.ctx.engine.query<T>(text, params)).rows;

async function enqueue(key: string, to: string) {
  const { error } = await service.rpc('enqueue_email', { p_school_id: SCHOOL.demo, p_user_id: null, p_to: to, p_kind: 'new_enrollment', p_key: key, p_payload: { course_title: `Curso ${key}` } });
  if (error) throw error;
}
async function drain() {
  const res = await fetch(`${backend.url}/functions/v1/send-emails`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', apikey: ANON_KEY, Authorization: `Bearer ${SERVICE_ROLE_KEY}` },
    body: '{}',
  });
  return (await res.json()) as Record<string, number>;
}
const row = async (key: string) =>
  (await sql<{ status: string; last_error: string | null; provider_message_id: string | null; delivery_started_at: string | null }>(
    'select status, last_error, provider_message_id, delivery_started_at from public.email_outbox where idempotency_key = $1', [key]))[0]!;
// Every message due now (a retry's backoff and a lease run out), as the next minutes would make them.
async function later() {
  await sql(`update public.email_outbox set next_attempt_at = now() - interval '1 second' where status = 'queued'`);
  await sql(`update public.email_outbox set locked_until = now() - interval '1 second' where status = 'sending'`);
}

afterEach(async () => {
  await sql('drop trigger if exists it_record_fails on public.email_outbox');
  await sql('drop function if exists private.it_record_fails()');
});

describe('send-emails: at most once per message', () => {
  it('the record fails after the SMTP server accepted the message: one delivery, never sent again; the control is sent once and recorded', async () => {
    const to = 'uma-vez@example.com';
    const control = 'controle-uma-vez@example.com';
    await enqueue('it:once', to);
    await enqueue('it:once-control', control);
    // The injected failure: marking this message sent fails (as a lost connection to the database would).
    await sql(`create function private.it_record_fails() returns trigger language plpgsql as $$
                 begin raise exception 'injected: record lost'; end $$`);
    await sql(`create trigger it_record_fails before update on public.email_outbox for each row
                 when (new.idempotency_key = 'it:once' and new.status = 'sent') execute function private.it_record_fails()`);
    await drain();
    expect(await inbox(backend, to)).toHaveLength(1);
    await sql('drop trigger it_record_fails on public.email_outbox');

    // The next runs, after any backoff or lease: nothing more for that address.
    for (let i = 0; i < 2; i++) {
      await later();
      await drain();
    }
    expect(await inbox(backend, to)).toHaveLength(1);
    const lost = await row('it:once');
    expect(lost.status).toBe('failed');
    expect(lost.last_error).toMatch(/Resultado do envio desconhecido/);
    // The message id was recorded before the send: the one the inbox got.
    expect(lost.provider_message_id).toMatch(/^<.+>$/);

    expect(await inbox(backend, control)).toHaveLength(1);
    expect(await row('it:once-control')).toMatchObject({ status: 'sent', provider_message_id: expect.stringMatching(/^<.+>$/) });
  });

  it('a sender that went away after starting the delivery: the message is not handed to the next run', async () => {
    await enqueue('it:gone', 'sumiu@example.com');
    const { data: claimed } = await service.rpc('claim_emails', { p_limit: 10 });
    const id = (claimed as { id: string; idempotency_key: string }[]).find((m) => m.idempotency_key === 'it:gone')!.id;
    expect((await service.rpc('start_email_delivery', { p_id: id, p_message_id: '<it-gone@example.com>' })).data).toBe(true);
    await later();
    await drain();
    expect(await inbox(backend, 'sumiu@example.com')).toHaveLength(0);
    expect(await row('it:gone')).toMatchObject({ status: 'failed', provider_message_id: '<it-gone@example.com>' });
  });

  it('a refusal the server answered is retried (the started mark cleared), and then delivered once', async () => {
    await enqueue('it:retry', 'smtp-fail-451@example.com');
    await drain();
    expect(await row('it:retry')).toMatchObject({ status: 'queued', delivery_started_at: null });
  });

  it('only the service role starts a delivery', async () => {
    const aluno = await backend.signIn(EMAIL.aluno);
    const { error } = await aluno.rpc('start_email_delivery', { p_id: '00000000-0000-4000-8000-000000000000', p_message_id: '<x@y>' });
    expect(error).not.toBeNull();
  });
});

// Issue 22's outbox (supabase/migrations/20261126000100_email_outbox.sql), checked by its effect in the
// database: one message per event and recipient however often the event repeats, two senders at once
// never take the same message, a failure is retried with backoff and then kept as failed with the
// provider's answer; staff read their own school's log only, and nobody but the service role writes
// or sends.
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { EMAIL, SCHOOL, USER } from '../rls/seed.ts';

const backend = useBackend();
const service = backend.service();
const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => (await backend.server.ctx.engine.query<T>(text, params)).rows;

type Row = { id: string; status: string; attempts: number; last_error: string | null; to_email: string };

async function enqueue(key: string, extra: Partial<{ school: string; user: string | null; to: string; kind: string; payload: object }> = {}) {
  const { data, error } = await service.rpc('enqueue_email', {
    p_school_id: extra.school ?? SCHOOL.demo,
    p_user_id: extra.user === undefined ? USER.aluna : extra.user,
    p_to: extra.to ?? EMAIL.aluna,
    p_kind: extra.kind ?? 'new_enrollment',
    p_key: key,
    p_payload: extra.payload ?? { course_title: 'Excel Essencial' },
  });
  if (error) throw error;
  return data as string | null;
}
async function claim(limit = 50): Promise<Row[]> {
  const { data, error } = await service.rpc('claim_emails', { p_limit: limit });
  if (error) throw error;
  return data as Row[];
}
const row = async (id: string) => (await sql<Row & { next_attempt_at: string; sent_at: string | null; locked_until: string | null }>('select * from public.email_outbox where id = $1', [id]))[0]!;

describe('email outbox', () => {
  it('a repeated event (a retried webhook, a second click) writes its message once', async () => {
    const first = await enqueue('enrollment:e1');
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(await enqueue('enrollment:e1')).toBeNull();
    expect(await enqueue('enrollment:e1', { payload: { course_title: 'Outro' } })).toBeNull();
    const rows = await sql('select id, payload from public.email_outbox where idempotency_key = $1', ['enrollment:e1']);
    expect(rows).toEqual([{ id: first, payload: { course_title: 'Excel Essencial' } }]);
    // The same key at another school is another school's event.
    expect(await enqueue('enrollment:e1', { school: SCHOOL.rival, user: USER.alunoRival, to: EMAIL.alunoRival })).not.toBeNull();
  });

  it('refuses a payload holding a password, an unknown kind and a malformed address', async () => {
    await expect(enqueue('k:pw', { payload: { temporary_password: 'Tmp-1234' } })).rejects.toMatchObject({ code: '23514' });
    await expect(enqueue('k:kind', { kind: 'newsletter' })).rejects.toMatchObject({ code: '23514' });
    await expect(enqueue('k:to', { to: 'not-an-address' })).rejects.toMatchObject({ code: '23514' });
    expect(await sql("select 1 from public.email_outbox where idempotency_key like 'k:%'")).toEqual([]);
  });

  it('two senders at once take disjoint batches, and every due message exactly once', async () => {
    await sql("update public.email_outbox set status = 'sent', sent_at = now(), locked_until = null");
    const ids = new Set<string>();
    for (let i = 0; i < 40; i++) ids.add((await enqueue(`race:${i}`))!);
    const [a, b] = await Promise.all([claim(25), claim(25)]);
    const taken = [...a, ...b].map((r) => r.id);
    expect(new Set(taken).size).toBe(taken.length);
    expect(new Set(taken)).toEqual(ids);
    expect([...a, ...b].every((r) => r.status === 'sending' && r.attempts === 1)).toBe(true);
    expect(await claim()).toEqual([]);
  });

  it('a message is sent once: a second complete (a sender whose lease ran out) changes nothing', async () => {
    const id = (await enqueue('complete:1'))!;
    expect((await claim()).map((r) => r.id)).toContain(id);
    expect((await service.rpc('complete_email', { p_id: id, p_provider_message_id: '<abc@smtp>' })).data).toBe(true);
    expect((await service.rpc('complete_email', { p_id: id })).data).toBe(false);
    expect(await row(id)).toMatchObject({ status: 'sent', provider_message_id: '<abc@smtp>', locked_until: null });
    expect((await row(id)).sent_at).not.toBeNull();
  });

  it('a failure is retried later with backoff, then kept as failed with the provider answer; a permanent one at once', async () => {
    const id = (await enqueue('fail:1'))!;
    for (let attempt = 1; attempt <= 5; attempt++) {
      const batch = await claim();
      expect(batch.map((r) => r.id)).toEqual([id]);
      const { data: status } = await service.rpc('fail_email', { p_id: id, p_error: `421 try again (${attempt})` });
      const after = await row(id);
      expect(status).toBe(attempt < 5 ? 'queued' : 'failed');
      expect(after.attempts).toBe(attempt);
      expect(after.last_error).toBe(`421 try again (${attempt})`);
      if (attempt < 5) {
        // Not due again before its backoff: 1, 2, 4, 8 minutes.
        expect(await claim()).toEqual([]);
        const wait = (await sql<{ minutes: number }>("select round(extract(epoch from next_attempt_at - now()) / 60)::int as minutes from public.email_outbox where id = $1", [id]))[0]!.minutes;
        expect(wait).toBe(2 ** (attempt - 1));
        await sql("update public.email_outbox set next_attempt_at = now() - interval '1 second' where id = $1", [id]);
      }
    }
    expect(await claim()).toEqual([]);

    const hard = (await enqueue('fail:permanent'))!;
    await claim();
    expect((await service.rpc('fail_email', { p_id: hard, p_error: '550 5.1.1 mailbox unavailable', p_permanent: true })).data).toBe('failed');
    expect(await row(hard)).toMatchObject({ status: 'failed', attempts: 1, last_error: '550 5.1.1 mailbox unavailable' });
  });

  it("a sender that went away: its messages are taken over once their lease has run out", async () => {
    const id = (await enqueue('stale:1'))!;
    await claim();
    expect(await claim()).toEqual([]);
    await sql("update public.email_outbox set locked_until = now() - interval '1 second' where id = $1", [id]);
    const again = await claim();
    expect(again.map((r) => [r.id, r.attempts])).toEqual([[id, 2]]);
  });

  it("staff read their own school's log only; students, anon and staff write nothing and send nothing", async () => {
    const demoId = (await enqueue('log:demo'))!;
    const rivalId = (await enqueue('log:rival', { school: SCHOOL.rival, user: USER.alunoRival, to: EMAIL.alunoRival }))!;
    const admin = await backend.signIn(EMAIL.adminDemo);
    const seen = (await admin.from('email_outbox').select('id, school_id')).data ?? [];
    expect(seen.map((r) => r.id)).toContain(demoId);
    expect(seen.map((r) => r.id)).not.toContain(rivalId);
    expect(seen.every((r) => r.school_id === SCHOOL.demo)).toBe(true);

    const aluna = await backend.signIn(EMAIL.aluna);
    expect((await aluna.from('email_outbox').select('id')).data).toEqual([]);
    for (const client of [aluna, admin, backend.anon()]) {
      const insert = await client.from('email_outbox').insert({ school_id: SCHOOL.demo, to_email: 'x@y.z', kind: 'we_miss_you', idempotency_key: 'forged' });
      expect(insert.error).not.toBeNull();
      const update = await client.from('email_outbox').update({ status: 'sent' }).eq('id', demoId).select('id');
      expect(update.data ?? []).toEqual([]);
      for (const [fn, args] of [
        ['enqueue_email', { p_school_id: SCHOOL.demo, p_user_id: null, p_to: 'x@y.z', p_kind: 'we_miss_you', p_key: 'forged' }],
        ['claim_emails', {}],
        ['complete_email', { p_id: demoId }],
        ['fail_email', { p_id: demoId, p_error: 'x' }],
      ] as const) {
        expect((await client.rpc(fn, args)).error, fn).not.toBeNull();
      }
    }
    expect(await row(demoId)).toMatchObject({ status: 'queued', attempts: 0 });
    expect(await sql("select 1 from public.email_outbox where idempotency_key = 'forged'")).toEqual([]);
  });
});

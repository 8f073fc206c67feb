// Issue 22's calendar e-mails (queue_daily_emails), with the test's own clock: a boleto due tomorrow,
// drip modules that opened today (one e-mail per student and day), and 7 days away (at most once in
// 30 days). Running a day twice writes nothing new; the daily job is scheduled in pg_cron.
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { COURSE, EMAIL, SCHOOL, USER } from '../rls/seed.ts';

const backend = useBackend();
const service = backend.service();
const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => (await backend.server.ctx.engine.query<T>(text, params)).rows;
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000);
const isoDate = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(d);

async function runDay(at: Date): Promise<number> {
  const { data, error } = await service.rpc('queue_daily_emails', { p_now: at.toISOString() });
  if (error) throw error;
  return data as number;
}
const keys = async (pattern: string) => (await sql<{ idempotency_key: string }>('select idempotency_key from public.email_outbox where idempotency_key like $1 order by 1', [pattern])).map((r) => r.idempotency_key);

describe('daily e-mails', () => {
  it('Lembrete de boleto: the day before a pending boleto falls due, once; a paid one gets none', async () => {
    const at = day(20);
    const due = isoDate(day(21));
    const [pending, paid] = await sql<{ id: string }>(
      `insert into public.payments (school_id, user_id, course_id, course_title, environment, billing_type, value, status)
       values ($1, $2, $3, 'Excel', 'sandbox', 'BOLETO', 297, 'PENDING'), ($1, $2, $3, 'Excel', 'sandbox', 'BOLETO', 297, 'PENDING')
       returning id::text as id`,
      [SCHOOL.demo, USER.aluna, COURSE.excel],
    );
    for (const p of [pending!, paid!]) {
      await service.rpc('enqueue_email', { p_school_id: SCHOOL.demo, p_user_id: USER.aluna, p_to: EMAIL.aluna, p_kind: 'payment_pending', p_key: `payment:${p.id}:pending`, p_payload: { method: 'BOLETO', amount: 297, due_date: due, course_title: 'Excel' } });
    }
    await service.from('payments').update({ status: 'CONFIRMED', paid_at: new Date().toISOString() }).eq('id', paid!.id);
    await runDay(day(19)); // two days before: nothing yet
    expect(await keys('payment:%:reminder')).toEqual([]);
    await runDay(at);
    await runDay(at);
    expect(await keys('payment:%:reminder')).toEqual([`payment:${pending!.id}:reminder`]);
    const [row] = await sql<{ kind: string; payload: { due_date: string } }>('select kind, payload from public.email_outbox where idempotency_key = $1', [`payment:${pending!.id}:reminder`]);
    expect(row).toEqual({ kind: 'payment_reminder', payload: expect.objectContaining({ due_date: due, method: 'BOLETO' }) });
  });

  it('Conteúdo liberado: the modules that opened today, one e-mail per student, not again the next day', async () => {
    const opening = day(40);
    const [a, b] = await sql<{ id: string }>(
      `insert into public.modules (course_id, title, order_index, release_mode, release_on) values
         ($1, 'Módulo Bônus A', 50, 'ON_DATE', $2::date), ($1, 'Módulo Bônus B', 51, 'ON_DATE', $2::date) returning id::text as id`,
      [COURSE.excel, isoDate(opening)],
    );
    expect(a && b).toBeTruthy();
    await runDay(day(39));
    expect(await keys(`content:${USER.aluno}:%`)).toEqual([]);
    await runDay(opening);
    await runDay(opening);
    const rows = await sql<{ to_email: string; payload: { modules: { module_title: string }[] } }>('select to_email, payload from public.email_outbox where idempotency_key like $1', [`content:${USER.aluno}:%`]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.to_email).toBe(EMAIL.aluno);
    expect(rows[0]!.payload.modules.map((m) => m.module_title)).toEqual(['Módulo Bônus A', 'Módulo Bônus B']);
    // The paused student gets nothing.
    expect(await keys(`content:${USER.pausado}:%`)).toEqual([]);
    await runDay(day(41));
    expect(await keys(`content:${USER.aluno}:%`)).toHaveLength(1);
  });

  it('Sentimos sua falta: after 7 days away with an unfinished course, at most once in 30 days', async () => {
    // He was here today; the other tests' far-off days wrote their own reminders, which go first.
    await sql("delete from public.email_outbox where kind = 'we_miss_you'");
    await sql('update auth.users set last_sign_in_at = now() where id = $1', [USER.aluno]);
    await runDay(day(3));
    expect(await keys(`miss:${USER.aluno}:%`)).toEqual([]);
    await runDay(day(8));
    await runDay(day(9));
    const rows = await sql<{ payload: { course_id: string; progress_percent: number } }>('select payload from public.email_outbox where idempotency_key like $1', [`miss:${USER.aluno}:%`]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.payload.course_id).toBe(COURSE.excel);
    expect(rows[0]!.payload.progress_percent).toBeGreaterThan(0);
    await runDay(day(25));
    expect(await keys(`miss:${USER.aluno}:%`)).toHaveLength(1);
    await runDay(day(39)); // 31 days after the first
    expect(await keys(`miss:${USER.aluno}:%`)).toHaveLength(2);
  });

  it('is scheduled daily at 09:00 in Brasília, and only the service role may run it', async () => {
    expect(await sql("select schedule, command from cron.job where jobname = 'queue-daily-emails'")).toEqual([{ schedule: '0 12 * * *', command: 'select public.queue_daily_emails()' }]);
    const aluno = await backend.signIn(EMAIL.aluno);
    expect((await aluno.rpc('queue_daily_emails', {})).error).not.toBeNull();
    expect((await backend.anon().rpc('queue_daily_emails', {})).error).not.toBeNull();
  });
});

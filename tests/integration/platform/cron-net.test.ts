// local-supabase's pg_cron, pg_net and Vault stand-ins (db/platform-extensions.sql, jobs/scheduler.ts):
// a job scheduled by a migration runs when due, as the platform's postgres, and its net.http_post goes
// out after the job's transaction; and issue 22's own job drains the outbox into the inbox when, and
// only when, a message is due. The clock is the test's (tick(at)), never a sleep.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { inbox } from '../auth-helpers.ts';
import { EMAIL, SCHOOL, USER } from '../rls/seed.ts';
import { parseCron } from '../../../local-supabase/jobs/cron-expression.ts';

const backend = useBackend({ functionSecrets: { SITE_URL: 'http://localhost:5999' } });
let hook: Server;
const received: { method: string; url: string; auth: string | undefined; body: string }[] = [];
const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => (await backend.server.ctx.engine.query<T>(text, params)).rows;

beforeAll(async () => {
  hook = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, body });
      res.writeHead(202, { 'Content-Type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  await new Promise((r) => hook?.close(r));
});
const hookUrl = () => `http://127.0.0.1:${(hook.address() as AddressInfo).port}`;

describe('pg_cron, pg_net and Vault, locally', () => {
  it('reads five-field schedules as pg_cron does (UTC)', () => {
    const at = new Date('2026-11-26T09:30:00Z'); // a Thursday
    expect(parseCron('* * * * *')(at)).toBe(true);
    expect(parseCron('*/15 * * * *')(at)).toBe(true);
    expect(parseCron('*/7 * * * *')(at)).toBe(false);
    expect(parseCron('30 9 * * 4')(at)).toBe(true);
    expect(parseCron('30 9 * * 1-3')(at)).toBe(false);
    expect(parseCron('0 12 1,26 * *')(new Date('2026-11-26T12:00:00Z'))).toBe(true);
    expect(() => parseCron('61 * * * *')).toThrow();
    expect(() => parseCron('30 seconds')).toThrow();
  });

  it('a job runs once in its minute, as the platform postgres, and its HTTP call leaves after the job', async () => {
    await sql(`select vault.create_secret($1, 'hook_url')`, [hookUrl()]);
    await sql(`select cron.schedule('hook', '*/5 * * * *', $$
      select net.http_post(url := (select decrypted_secret from vault.decrypted_secrets where name = 'hook_url') || '/ping',
                           body := jsonb_build_object('who', current_user), headers := '{"Authorization": "Bearer segredo"}'::jsonb)
    $$)`);
    await backend.server.jobs.tick(new Date('2026-11-26T10:01:00Z'));
    expect(received).toEqual([]);
    await backend.server.jobs.tick(new Date('2026-11-26T10:05:00Z'));
    await backend.server.jobs.tick(new Date('2026-11-26T10:05:30Z')); // same minute: not again
    expect(received).toEqual([{ method: 'POST', url: '/ping', auth: 'Bearer segredo', body: '{"who": "platform_postgres"}' }]);
    const [response] = await sql<{ status_code: number; content: string }>('select status_code, content from net._http_response order by created desc limit 1');
    expect(response).toEqual({ status_code: 202, content: '{"ok":true}' });
    const runs = await sql<{ status: string }>("select status from cron.job_run_details d join cron.job j using (jobid) where j.jobname = 'hook'");
    expect(runs).toEqual([{ status: 'succeeded' }]);
    await sql("select cron.unschedule('hook')");
  });

  it('a failing job is noted failed and does not stop the others', async () => {
    await sql(`select cron.schedule('broken', '* * * * *', 'select 1/0')`);
    await backend.server.jobs.tick(new Date('2026-11-26T10:06:00Z'));
    const [run] = await sql<{ status: string; return_message: string }>("select status, return_message from cron.job_run_details d join cron.job j using (jobid) where j.jobname = 'broken'");
    expect(run).toEqual({ status: 'failed', return_message: 'division by zero' });
    await sql("select cron.unschedule('broken')");
  });

  it("issue 22's schedule: nothing is called while nothing is due; a due message reaches the inbox on the next minute", async () => {
    const calls = async () => (await sql<{ n: number }>('select count(*)::int as n from net._http_response'))[0]!.n;
    const before = await calls();
    await backend.server.jobs.tick(new Date('2026-11-26T10:10:00Z'));
    expect(await calls()).toBe(before);

    const { error } = await backend.service().rpc('enqueue_email', {
      p_school_id: SCHOOL.demo, p_user_id: USER.aluno, p_to: EMAIL.aluno, p_kind: 'new_enrollment', p_key: 'cron:1', p_payload: { course_title: 'Curso do Agendamento' },
    });
    expect(error).toBeNull();
    await backend.server.jobs.tick(new Date('2026-11-26T10:11:00Z'));
    expect(await calls()).toBe(before + 1);
    expect((await inbox(backend, EMAIL.aluno)).map((m) => m.subject)).toContain('Matrícula feita: Curso do Agendamento');
    expect(await sql("select status from public.email_outbox where idempotency_key = 'cron:1'")).toEqual([{ status: 'sent' }]);
  });

  it('the API roles cannot schedule jobs, read Vault or queue requests of their own', async () => {
    const as = (role: string, statement: string) =>
      backend.server.ctx.engine.transaction(async (tx) => {
        await tx.exec(`set local role ${role}`);
        await tx.exec(statement);
      });
    for (const role of ['anon', 'authenticated']) {
      await expect(as(role, "select cron.schedule('x', '* * * * *', 'select 1')")).rejects.toMatchObject({ code: '42501' });
      await expect(as(role, 'select decrypted_secret from vault.decrypted_secrets')).rejects.toMatchObject({ code: '42501' });
      await expect(as(role, "select net.http_post('http://127.0.0.1:1/')")).rejects.toMatchObject({ code: '42501' });
    }
    expect(await sql("select 1 from cron.job where jobname = 'x'")).toEqual([]);
  });
});

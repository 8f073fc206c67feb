// No request runs past its role's statement timeout, on PGlite as on PostgreSQL (issue 37, hole 3):
// the platform's role settings (anon 3 s, authenticated 8 s, service_role authenticator's 8 s) are
// applied to each request, and a statement past them is cancelled with PostgREST's answer, its
// writes undone. PostgreSQL enforces statement_timeout itself; PGlite runs in a worker thread and the
// server cancels it through Postgres's interrupt flags (local-supabase/db/pglite.ts). Meanwhile the
// server keeps answering: on PostgreSQL another request is served during the long one; on PGlite the
// event loop is free and the next database request is answered right after the cancel.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../local-supabase/db/engine.ts';
import { ANON_KEY, SERVICE_ROLE_KEY, useBackend } from '../harness.ts';

const backend = useBackend();
let db: Engine;

beforeAll(async () => {
  db = backend.server.ctx.engine;
  // A function that works for p_seconds (a loop Postgres can interrupt) after writing a row.
  await db.exec(`
    create table public.timeout_probe_marks (id serial primary key, at timestamptz not null default now());
    create function public.timeout_probe_busy(p_seconds float8) returns bigint
    language plpgsql volatile security definer set search_path = '' as $$
    declare
      v_end timestamptz := clock_timestamp() + make_interval(secs => p_seconds);
      v_turns bigint := 0;
    begin
      insert into public.timeout_probe_marks default values;
      loop
        exit when clock_timestamp() >= v_end;
        v_turns := v_turns + 1;
      end loop;
      return v_turns;
    end $$;
    create function public.timeout_probe_setting() returns text language sql stable as $$ select current_setting('statement_timeout') $$;
    grant execute on function public.timeout_probe_busy(float8), public.timeout_probe_setting() to anon, authenticated, service_role;`);
});

const marks = async () => (await db.query<{ n: number }>('select count(*)::int as n from public.timeout_probe_marks')).rows[0]!.n;
const rpc = (name: string, body: unknown, key = ANON_KEY) =>
  fetch(`${backend.url}/rest/v1/rpc/${name}`, {
    method: 'POST',
    headers: { apikey: ANON_KEY, Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
const schools = () => fetch(`${backend.url}/rest/v1/schools?select=slug&slug=eq.escola-demo`, { headers: { apikey: ANON_KEY } });

/** PostgREST's answer to a statement past statement_timeout (SQLSTATE 57014 is HTTP 500). */
const TIMEOUT_BODY = { code: '57014', details: null, hint: null, message: 'canceling statement due to statement timeout' };

describe('a request past its role statement timeout', () => {
  it('applies the platform role settings to each request: anon 3 s, authenticated 8 s, service_role 8 s (authenticator)', async () => {
    expect(await (await rpc('timeout_probe_setting', {})).json()).toBe('3s');
    const student = await backend.signIn('aluno@escola-demo.com.br');
    expect((await student.rpc('timeout_probe_setting' as never)).data).toBe('8s');
    expect(await (await rpc('timeout_probe_setting', {}, SERVICE_ROLE_KEY)).json()).toBe('8s');
  });

  it('is cancelled with PostgREST error and its writes undone, while the server keeps answering; the database works afterwards', { timeout: 60_000 }, async () => {
    expect(await (await rpc('timeout_probe_busy', { p_seconds: 0 })).json()).toBe(0); // the schema cache knows it now
    const before = await marks();
    const answered: string[] = [];
    // anon: 3 s. The function would work for 20 s.
    const long = rpc('timeout_probe_busy', { p_seconds: 20 }).then(async (r) => {
      answered.push('long');
      return { status: r.status, body: await r.json() };
    });
    if (db.kind === 'postgres') {
      // Once it runs, another request is served beside it.
      await expect.poll(async () => (await db.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity where datname = current_database() and state = 'active'
            and query like '%timeout_probe_busy%' and pid <> pg_backend_pid()`,
      )).rows[0]!.n, { timeout: 10_000 }).toBe(1);
      const other = await schools();
      answered.push('other');
      expect(other.status).toBe(200);
      expect(answered).toEqual(['other']);
    } else {
      // (PGlite cannot be asked what it runs while it runs: a second is ample for the call to start.)
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      // The event loop is free: an endpoint without the database answers at once...
      const health = await fetch(`${backend.url}/auth/v1/health`);
      answered.push('health');
      expect(health.status).toBe(200);
      expect(answered).toEqual(['health']);
    }
    // ...and a database request waits for the one connection: answered once the long one is cancelled.
    const next = schools().then(async (r) => {
      answered.push('next');
      return { status: r.status, body: await r.json() };
    });
    expect(await long).toEqual({ status: 500, body: TIMEOUT_BODY });
    expect(await next).toEqual({ status: 200, body: [{ slug: 'escola-demo' }] });
    if (db.kind === 'pglite') expect(answered).toEqual(['health', 'long', 'next']);
    // Rolled back: the row it wrote is gone. And the database serves reads and writes as before.
    expect(await marks()).toBe(before);
    expect(await (await rpc('timeout_probe_busy', { p_seconds: 0.05 })).json()).toBeGreaterThan(0);
    expect(await marks()).toBe(before + 1);
  });
});

describe('Engine: the statement_timeout of a request settings', () => {
  const spin = { text: 'select public.timeout_probe_busy($1::text::float8) as turns', params: ['20'] };

  it('cancels one statement past it (Engine.runStatement), with PostgreSQL error, and nothing of it stays', async () => {
    const before = await marks();
    await expect(db.runStatement({ role: 'authenticated', statement_timeout: '300ms' }, spin)).rejects.toMatchObject({
      code: '57014',
      message: 'canceling statement due to statement timeout',
    });
    // A verdict asked for: the same.
    await expect(db.runStatement({ role: 'authenticated', statement_timeout: '300ms' }, spin, () => 'commit')).rejects.toMatchObject({ code: '57014' });
    expect(await marks()).toBe(before);
    // Under the timeout, it runs and commits.
    const ok = await db.runStatement<{ turns: number }>({ role: 'authenticated', statement_timeout: '10s' }, { ...spin, params: ['0.05'] });
    expect(Number(ok.rows[0]!.turns)).toBeGreaterThan(0);
    expect(await marks()).toBe(before + 1);
  });

  it('cancels a statement of a transaction run with it (the Storage API), which rolls back', async () => {
    const before = await marks();
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into public.timeout_probe_marks default values');
        await tx.query('select public.timeout_probe_busy(20)');
      }, { role: 'service_role', statement_timeout: '300ms' }),
    ).rejects.toMatchObject({ code: '57014', message: 'canceling statement due to statement timeout' });
    expect(await marks()).toBe(before);
    // The next transaction and statement are not cut short by what was cancelled before.
    const r = await db.transaction((tx) => tx.query<{ s: string }>("select current_setting('statement_timeout') as s"), { statement_timeout: '5s' });
    expect(r.rows).toEqual([{ s: '5s' }]);
    expect((await db.query<{ n: number }>('select 1 as n')).rows).toEqual([{ n: 1 }]);
  });
});

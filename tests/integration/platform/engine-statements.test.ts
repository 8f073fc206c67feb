// The engines' one-request transaction (Engine.runStatement), on PGlite and on PostgreSQL, where it
// is a pipeline of prepared statements (local-supabase/db/pipelined-statement.ts): settings stay in
// their request, failures leave the connection usable, and many query shapes do not break it.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../local-supabase/db/engine.ts';
import { useBackend } from '../harness.ts';

const backend = useBackend();
let engine: Engine;

beforeAll(async () => {
  engine = backend.server.ctx.engine;
});

const asAnon = { role: 'anon', 'request.jwt.claims': '{"role":"anon"}' };
const whoAmI = { text: "select current_user::text as role, current_setting('request.jwt.claims', true) as claims, $1::text as echo", params: ['olá'] };

describe('Engine.runStatement', () => {
  it('runs the statement with the settings, and they end with it (many requests, every pooled connection)', async () => {
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0 ? engine.runStatement<{ role: string }>(asAnon, whoAmI) : engine.query<{ role: string }>("select current_user::text as role, current_setting('request.jwt.claims', true) as claims"),
      ),
    );
    for (const [i, r] of results.entries()) {
      if (i % 2 === 0) expect(r.rows[0]).toEqual({ role: 'anon', claims: '{"role":"anon"}', echo: 'olá' });
      else expect(r.rows[0]!.role).not.toBe('anon');
    }
    // Nothing of the requests is left on any connection afterwards.
    for (let i = 0; i < 20; i++) {
      const r = await engine.runStatement<{ role: string; claims: string }>({}, { text: "select current_user::text as role, coalesce(current_setting('request.jwt.claims', true), '') as claims", params: [] });
      expect(r.rows[0]).toMatchObject({ claims: '' });
      expect(r.rows[0]!.role).not.toBe('anon');
    }
  });

  it('a failing statement rolls back its writes and the connection serves the next request', async () => {
    await engine.query('create table if not exists public.engine_probe (id int primary key)');
    for (let i = 0; i < 15; i++) {
      // The insert runs, then the division fails: the whole request is undone.
      await expect(
        engine.runStatement({}, { text: 'with ins as (insert into public.engine_probe values ($1::text::int) returning id) select id / 0 as x from ins', params: [String(i)] }),
      ).rejects.toMatchObject({ code: '22012' });
      // A statement that fails to parse (unknown column), then the same shape again, then a good one.
      await expect(engine.runStatement(asAnon, { text: 'select no_such_column from pg_class where relname = $1::text', params: ['x'] })).rejects.toMatchObject({ code: '42703' });
      await expect(engine.runStatement(asAnon, { text: 'select $1::text::int as n', params: ['not a number'] })).rejects.toMatchObject({ code: '22P02' });
      expect((await engine.runStatement(asAnon, { text: 'select $1::text::int as n', params: [String(i)] })).rows).toEqual([{ n: i }]);
    }
    expect((await engine.query('select count(*)::int as n from public.engine_probe')).rows).toEqual([{ n: 0 }]);
  });

  it('commits the writes of a statement that succeeds, without a verdict asked for', async () => {
    const r = await engine.runStatement({}, { text: 'insert into public.engine_probe values ($1::text::int) returning id', params: ['7'] });
    expect(r.rows).toEqual([{ id: 7 }]);
    expect((await engine.query('select id from public.engine_probe')).rows).toEqual([{ id: 7 }]);
  });

  it('answers correctly across more query shapes than a connection keeps prepared', async () => {
    // 3,000 distinct statements over the pool's connections (about 300 each, more than the 256 a
    // connection keeps), then the first 100 again, long since closed on most connections.
    const run = (n: number, tag: string) =>
      Promise.all(Array.from({ length: n }, (_, i) => engine.runStatement(asAnon, { text: `select ${i} as shape, $1::text as value`, params: [`v${i}-${tag}`] })));
    for (const [n, tag] of [[3000, 'a'], [100, 'b']] as const) {
      const batch = await run(n, tag);
      batch.forEach((r, i) => expect(r.rows).toEqual([{ shape: i, value: `v${i}-${tag}` }]));
    }
  });
});

// The Prefer header as PostgREST documents it (references/api/preferences): tx=rollback answers as if
// committed and keeps nothing; handling=strict refuses unknown preferences (PGRST122) and, with
// max-affected=N, any PATCH, DELETE or RPC affecting more than N rows (PGRST124), undoing it.
import { describe, expect, it } from 'vitest';
import { rest, useRestBackend } from '../rest-fixtures.ts';

const rt = useRestBackend();

async function hits(slug: string): Promise<number | null> {
  const r = await rt.backend.server.ctx.engine.query<{ hits: number }>(`select hits from public.rt_counters where slug = $1`, [slug]);
  return r.rows[0]?.hits ?? null;
}

async function seedCounters(prefix: string, n: number) {
  await rt.backend.server.ctx.engine.query(`insert into public.rt_counters (slug, hits) select $1 || g, 1 from generate_series(1, $2::int) g`, [prefix, n]);
}

describe('Prefer: tx=rollback (postgrest-js .rollback())', () => {
  it('returns the inserted representation and keeps nothing', async () => {
    const r = await rt.db.from('rt_counters').insert({ slug: 'tx-insert', hits: 7 }).select().rollback();
    expect(r.error).toBeNull();
    expect(r.status).toBe(201);
    expect(r.data).toEqual([{ slug: 'tx-insert', hits: 7, note: 'fresh' }]);
    expect(await hits('tx-insert')).toBeNull();
  });

  it('undoes an update and a delete, and says so in Preference-Applied', async () => {
    await seedCounters('tx-upd-', 2);
    const res = await rest(rt.backend, '/rt_counters?slug=like.tx-upd-*', {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', Prefer: 'tx=rollback, return=representation' },
      body: JSON.stringify({ hits: 99 }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('preference-applied')).toBe('return=representation, tx=rollback');
    expect((await res.json()).map((r: { hits: number }) => r.hits)).toEqual([99, 99]);
    expect(await hits('tx-upd-1')).toBe(1);
    const del = await rt.db.from('rt_counters').delete().like('slug', 'tx-upd-*').rollback();
    expect(del.status).toBe(204);
    expect(await hits('tx-upd-2')).toBe(1);
  });

  it('undoes what a function did', async () => {
    const r = await rt.db.rpc('rt_bump', { slug_in: 'tx-rpc' }).rollback();
    expect(r.data).toBe(1);
    expect(await hits('tx-rpc')).toBeNull();
  });
});

describe('Prefer: handling=strict, max-affected=N', () => {
  it('refuses a delete that would remove more rows than allowed, and removes none', async () => {
    await seedCounters('max-del-', 3);
    const res = await rest(rt.backend, '/rt_counters?slug=like.max-del-*', { method: 'DELETE', headers: { Prefer: 'handling=strict, max-affected=2' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: 'PGRST124',
      message: 'Query result exceeds max-affected preference constraint',
      details: 'The query affects 3 rows',
      hint: null,
    });
    expect(await hits('max-del-3')).toBe(1);
    const ok = await rest(rt.backend, '/rt_counters?slug=like.max-del-*', { method: 'DELETE', headers: { Prefer: 'handling=strict, max-affected=3' } });
    expect(ok.status).toBe(204);
    expect(ok.headers.get('preference-applied')).toBe('handling=strict, max-affected=3');
    expect(await hits('max-del-1')).toBeNull();
  });

  it('refuses an update over the limit and leaves the rows as they were', async () => {
    await seedCounters('max-upd-', 4);
    const res = await rest(rt.backend, '/rt_counters?slug=like.max-upd-*', {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', Prefer: 'handling=strict,max-affected=1' },
      body: JSON.stringify({ hits: 50 }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).details).toBe('The query affects 4 rows');
    expect(await hits('max-upd-4')).toBe(1);
  });

  it('is ignored with lenient handling, as PostgREST ignores it', async () => {
    await seedCounters('max-len-', 2);
    const res = await rest(rt.backend, '/rt_counters?slug=like.max-len-*', { method: 'DELETE', headers: { Prefer: 'max-affected=1' } });
    expect(res.status).toBe(204);
    expect(await hits('max-len-2')).toBeNull();
  });

  it('counts the rows a function returns', async () => {
    const res = await rest(rt.backend, '/rpc/rt_ids?n=5', { headers: { Prefer: 'handling=strict, max-affected=3' } });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('PGRST124');
  });
});

describe('Prefer: handling', () => {
  it('strict refuses unknown preferences with PGRST122 and names them; lenient ignores them', async () => {
    const strict = await rest(rt.backend, '/rt_counters?select=slug&limit=1', { headers: { Prefer: 'handling=strict, foo, bar=baz' } });
    expect(strict.status).toBe(400);
    expect(await strict.json()).toEqual({
      code: 'PGRST122',
      message: 'Invalid preferences given with handling=strict',
      details: 'Invalid preferences: foo, bar=baz',
      hint: null,
    });
    const lenient = await rest(rt.backend, '/rt_counters?select=slug&limit=1', { headers: { Prefer: 'handling=lenient, foo' } });
    expect(lenient.status).toBe(200);
    expect(lenient.headers.get('preference-applied')).toBe('handling=lenient');
  });

  it('takes the first value of a preference given twice', async () => {
    const res = await rest(rt.backend, '/rt_counters', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Prefer: 'tx=rollback, tx=commit, return=minimal' },
      body: JSON.stringify({ slug: 'first-wins' }),
    });
    expect(res.status).toBe(201);
    expect(await hits('first-wins')).toBeNull();
  });
});

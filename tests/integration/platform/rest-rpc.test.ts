// /rest/v1/rpc/<function> through supabase-js: argument matching, overloads and every result shape.
import { describe, expect, it } from 'vitest';
import { rest, useRestBackend } from '../rest-fixtures.ts';

// A stable function that writes through a volatile one (PostgreSQL lets it), and a view that writes: what
// PostgREST's read-only transactions refuse.
const rt = useRestBackend(`
create function public.rt_stable_bump(slug_in text) returns int language plpgsql stable as $$
begin
  return public.rt_bump(slug_in);
end $$;
create view public.rt_bumping as select public.rt_bump('view') as hits;
`);

const hits = async (slug: string) =>
  (await rt.backend.server.ctx.engine.query<{ hits: number }>('select hits from public.rt_counters where slug = $1', [slug])).rows.map((r) => r.hits);
const READ_ONLY = (command: string) => ({ code: '25006', message: `cannot execute ${command} in a read-only transaction`, details: null, hint: null });

describe('rpc', () => {
  it('returns scalars as bare JSON values', async () => {
    expect(await rt.db.rpc('rt_add', { a: 2, b: 3 })).toMatchObject({ data: 5, error: null, status: 200 });
    const hello = await rt.db.rpc('rt_hello', { name: 'Ana' });
    expect(hello.error).toBeNull();
    expect(hello.data).toBe('olá, Ana');
    expect((await rt.db.rpc('rt_hello')).data).toBe('olá, mundo');
    expect((await rt.db.rpc('rt_echo', { payload: { a: [1, 'x', null] } })).data).toEqual({ a: [1, 'x', null] });
    expect((await rt.db.rpc('rt_sum', { vals: [1, 2, 3] })).data).toBe(6);
  });

  it('returns sets of scalars as arrays, and void as 204', async () => {
    expect((await rt.db.rpc('rt_ids', { n: 3 })).data).toEqual([1, 2, 3]);
    const v = await rt.db.rpc('rt_noop');
    expect(v.status).toBe(204);
    expect(v.error).toBeNull();
    expect(v.data).toBeNull();
  });

  it('returns rows that can be filtered, ordered, selected and embedded', async () => {
    const r = await rt.db.rpc('rt_courses_of', { school: 1 }).select('id, title, rt_schools(slug)').order('id', { ascending: false });
    expect(r.error).toBeNull();
    expect(r.data).toEqual([
      { id: 2, title: 'Geometria', rt_schools: { slug: 'azul' } },
      { id: 1, title: 'Álgebra', rt_schools: { slug: 'azul' } },
    ]);
    const filtered = await rt.db.rpc('rt_courses_of', { school: 1 }).select('id').eq('published', true);
    expect(filtered.data).toEqual([{ id: 1 }]);
    const counted = await rt.db.rpc('rt_courses_of', { school: 2 }, { count: 'exact' }).select('id').limit(1);
    expect(counted.count).toBe(2);
    expect(counted.status).toBe(206);
    const single = await rt.db.rpc('rt_courses_of', { school: 2 }).select('id').eq('id', 4).single();
    expect(single.data).toEqual({ id: 4 });
  });

  it('returns one row as an object, RETURNS TABLE as an array', async () => {
    expect((await rt.db.rpc('rt_first_course').select('id, title')).data).toEqual({ id: 1, title: 'Álgebra' });
    expect((await rt.db.rpc('rt_stats')).data).toEqual([{ total: 4, published: 3 }]);
  });

  it('calls with GET and HEAD, arguments from the query string', async () => {
    const r = await rt.db.rpc('rt_add', { a: 40, b: 2 }, { get: true });
    expect(r.data).toBe(42);
    const set = await rt.db.rpc('rt_courses_of', { school: 2 }, { get: true }).select('id').order('id');
    expect(set.data).toEqual([{ id: 3 }, { id: 4 }]);
    const head = await rt.db.rpc('rt_courses_of', { school: 2 }, { head: true, count: 'exact' });
    expect(head.count).toBe(2);
    expect(head.data).toBeNull();
    const raw = await rest(rt.backend, '/rpc/rt_sum?vals=%7B4,5%7D');
    expect(await raw.json()).toBe(9);
  });

  it('picks the overload matching the argument names', async () => {
    expect((await rt.db.rpc('rt_pick', { a: 1 })).data).toBe('int');
    expect((await rt.db.rpc('rt_pick', { a: 'x', b: 'y' })).data).toBe('text-text');
  });

  it('runs volatile functions once per call, in the caller transaction', async () => {
    expect((await rt.db.rpc('rt_bump', { slug_in: 'rpc' })).data).toBe(1);
    expect((await rt.db.rpc('rt_bump', { slug_in: 'rpc' }, { count: 'exact' })).data).toBe(2);
    const r = await rt.backend.server.ctx.engine.query<{ hits: number }>("select hits from public.rt_counters where slug = 'rpc'");
    expect(r.rows[0].hits).toBe(2);
  });

  it('sets the JWT claims the function sees', async () => {
    expect((await rt.db.rpc('rt_me')).data).toEqual({ uid: null, role: 'anon' });
    const user = await rt.backend.jwtUser();
    expect((await user.client.rpc('rt_me')).data).toEqual({ uid: user.id, role: 'authenticated' });
  });

  it('reports raised exceptions and unknown functions or arguments', async () => {
    const raised = await rt.db.rpc('rt_fail', { msg: 'Curso lotado' });
    expect(raised.status).toBe(400);
    expect(raised.error).toEqual({ code: 'P0001', message: 'Curso lotado', details: 'it failed', hint: 'try again' });
    const missing = await rt.db.rpc('rt_nope', { a: 1 });
    expect(missing.status).toBe(404);
    expect(missing.error).toMatchObject({ code: 'PGRST202', message: 'Could not find the function public.rt_nope(a) in the schema cache' });
    const wrongArgs = await rt.db.rpc('rt_add', { a: 1, c: 2 });
    expect(wrongArgs.status).toBe(404);
    expect(wrongArgs.error?.code).toBe('PGRST202');
    const badValue = await rt.db.rpc('rt_add', { a: 'x', b: 1 });
    expect(badValue.status).toBe(400);
    expect(badValue.error?.code).toBe('22P02');
  });
});

describe('access mode, as PostgREST runs each request (docs: Transactions › Access Mode)', () => {
  it('GET and HEAD /rpc run read-only, whatever the volatility: a volatile function that writes answers 405 25006 and writes nothing', async () => {
    const get = await rt.db.rpc('rt_bump', { slug_in: 'get' }, { get: true });
    expect({ status: get.status, error: get.error }).toEqual({ status: 405, error: READ_ONLY('INSERT') });
    const head = await rt.db.rpc('rt_bump', { slug_in: 'get' }, { head: true });
    expect(head.status).toBe(405);
    expect(await hits('get')).toEqual([]);
    // Control: POST runs it read-write.
    expect((await rt.db.rpc('rt_bump', { slug_in: 'get' })).data).toBe(1);
    expect(await hits('get')).toEqual([1]);
  });

  it('POST runs a stable or immutable function read-only: one that writes through a volatile one answers 405 and writes nothing', async () => {
    const r = await rt.db.rpc('rt_stable_bump', { slug_in: 'stable' });
    expect({ status: r.status, error: r.error }).toEqual({ status: 405, error: READ_ONLY('INSERT') });
    expect(await hits('stable')).toEqual([]);
    // Control: stable and immutable functions that only read answer as before, by POST and GET.
    expect((await rt.db.rpc('rt_add', { a: 1, b: 2 })).data).toBe(3);
    expect((await rt.db.rpc('rt_courses_of', { school: 1 }).select('id')).data).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('GET and HEAD on a table or view run read-only too', async () => {
    const r = await rt.db.from('rt_bumping').select('hits');
    expect({ status: r.status, error: r.error }).toEqual({ status: 405, error: READ_ONLY('INSERT') });
    expect((await rt.db.from('rt_bumping').select('hits', { head: true, count: 'exact' })).status).toBe(405);
    expect(await hits('view')).toEqual([]);
    expect((await rt.db.from('rt_courses').select('id').eq('id', 1)).data).toEqual([{ id: 1 }]);
  });
});

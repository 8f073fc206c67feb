// Hostile input against /rest/v1: quotes and SQL in names, values, order, select, on_conflict,
// columns, rpc names and arguments. Every attempt must get an error (or a harmless empty answer)
// and change nothing.
import { describe, expect, it } from 'vitest';
import { rest, useRestBackend } from '../rest-fixtures.ts';

const DROP = `"; drop table public.rt_canary; --`;
const DROP_SQ = `'; drop table public.rt_canary; --`;

const rt = useRestBackend(`create table public.rt_canary (id int primary key); insert into public.rt_canary values (1);
create function public.rt_forwarded_for() returns text language sql stable as $$ select current_setting('request.headers', true)::json ->> 'x-forwarded-for' $$;
create function public.rt_connecting_ip() returns text language sql stable as $$ select current_setting('request.headers', true)::json ->> 'cf-connecting-ip' $$;`);

/** The canary table, the secrets and the courses are untouched, and no role leaked. */
async function expectNothingChanged() {
  const e = rt.backend.server.ctx.engine;
  const r = await e.query<{ canary: string | null; secrets: number | string; courses: number | string; titles: string }>(`
    select to_regclass('public.rt_canary')::text as canary,
           (select count(*) from public.rt_secrets where value = 'top secret') as secrets,
           (select count(*) from public.rt_courses) as courses,
           (select string_agg(title, ',' order by id) from public.rt_courses) as titles`);
  expect(r.rows[0].canary).toBe('rt_canary');
  expect(Number(r.rows[0].secrets)).toBe(1);
  expect(Number(r.rows[0].courses)).toBe(4);
  expect(r.rows[0].titles).toBe('Álgebra,Geometria,Redação,Gramática 100%');
}

async function expectError(res: Response, statuses: number[] = [400, 404]) {
  expect(statuses).toContain(res.status);
  const body = await res.json();
  expect(typeof body.code).toBe('string');
  expect(body).toHaveProperty('message');
  return body as { code: string; message: string };
}

describe('hostile input', () => {
  it('column names in select with quotes and SQL', async () => {
    for (const select of [
      `id,"title${DROP}"`,
      `id,title${encodeURIComponent(')')}`,
      `id,(select value from rt_secrets)`,
      `id,title::text;drop table rt_canary`,
      `id,title::text)--`,
      `id,rt_schools!"x${DROP}"(name)`,
      `id,"rt_schools${DROP}"(name)`,
      `*,rt_secrets(*)`,
    ]) {
      await expectError(await rest(rt.backend, `/rt_courses?select=${encodeURIComponent(select)}`));
    }
    // A quoted alias is just a JSON key.
    const alias = `x${DROP_SQ}`;
    const aliased = await rt.db.from('rt_courses').select(`"${alias}":title`).eq('id', 1);
    expect(aliased.error).toBeNull();
    expect(aliased.data).toEqual([{ [alias]: 'Álgebra' }]);
    await expectNothingChanged();
  });

  it('filter values are bound parameters, never SQL', async () => {
    for (const value of [DROP_SQ, `x' or '1'='1`, `1; delete from public.rt_courses`, `\\'; select pg_sleep(5); --`]) {
      const eq = await rt.db.from('rt_courses').select('id').eq('title', value);
      expect(eq.error).toBeNull();
      expect(eq.data).toEqual([]);
      const like = await rt.db.from('rt_courses').select('id').ilike('title', value);
      expect(like.data).toEqual([]);
      const inList = await rt.db.from('rt_courses').select('id').in('title', [value, `a"b`, 'c)d']);
      expect(inList.data).toEqual([]);
      const json = await rt.db.from('rt_courses').select('id').eq(`meta->>${value.replaceAll(',', '')}`, value);
      expect([200, 400]).toContain(json.status);
      const or = await rest(rt.backend, `/rt_courses?select=id&or=${encodeURIComponent(`(title.eq."${value.replaceAll('"', '\\"')}",id.eq.0)`)}`);
      expect(await or.json()).toEqual([]);
    }
    const num = await rt.db.from('rt_courses').select('id').eq('id', '1 or 1=1');
    expect(num.status).toBe(400);
    expect(num.error?.code).toBe('22P02');
    await expectNothingChanged();
  });

  it('filter column names with quotes and SQL', async () => {
    for (const key of [`title${DROP}`, `id;drop table rt_canary`, `id) or (1=1`, `rt_secrets.value`, `meta->>x') or ('1'='1`]) {
      const res = await rest(rt.backend, `/rt_courses?select=id&${encodeURIComponent(key)}=eq.1`);
      const status = res.status;
      if (status === 200) {
        // Only a JSON key, bound as a parameter: matches nothing.
        expect(await res.json()).toEqual([]);
      } else {
        await expectError(res);
      }
    }
    await expectNothingChanged();
  });

  it('order, limit and offset', async () => {
    for (const q of [
      `order=${encodeURIComponent(`title${DROP}`)}`,
      `order=${encodeURIComponent('id;drop table rt_canary')}`,
      `order=${encodeURIComponent('(select 1)')}`,
      `order=${encodeURIComponent('id.desc,title.asc;--')}`,
      `order=${encodeURIComponent('rt_schools(name;drop)')}`,
      'limit=1;drop',
      'limit=-1',
      'offset=1%20union%20select%201',
    ]) {
      await expectError(await rest(rt.backend, `/rt_courses?select=id&${q}`));
    }
    await expectNothingChanged();
  });

  it('on_conflict, columns and JSON keys of mutations', async () => {
    const conflict = await rest(rt.backend, `/rt_schools?on_conflict=${encodeURIComponent(`id) do nothing; drop table public.rt_canary; --`)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Prefer: 'resolution=merge-duplicates' },
      body: JSON.stringify({ id: 1, name: 'x' }),
    });
    await expectError(conflict);
    const columns = await rest(rt.backend, `/rt_schools?columns=${encodeURIComponent(`"id","name${DROP}"`)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify([{ id: 500, name: 'x' }]),
    });
    await expectError(columns);
    const keys = await rt.db.from('rt_schools').insert({ id: 501, name: 'x', [`name${DROP}`]: 1 });
    expect(keys.status).toBe(400);
    expect(keys.error?.code).toBe('PGRST204');
    const update = await rt.db.from('rt_courses').update({ [`title = 'pwned' --`]: 1 }).eq('id', 1);
    expect(update.error?.code).toBe('PGRST204');
    // Values of a JSON body are data, whatever they contain.
    const value = await rt.db.from('rt_schools').insert({ id: 502, name: DROP_SQ }).select('name').single();
    expect(value.data).toEqual({ name: DROP_SQ });
    await rt.db.from('rt_schools').delete().eq('id', 502);
    // An update or delete without filters that RLS or grants do not stop is the caller's right, so
    // the attack surface is the filters: a filter that does not parse must not widen into "all rows".
    const wide = await rest(rt.backend, `/rt_courses?id=${encodeURIComponent('eq.1 or 1=1')}`, { method: 'DELETE' });
    await expectError(wide);
    await expectNothingChanged();
  });

  it('table and function names', async () => {
    for (const path of [
      `/${encodeURIComponent(`rt_courses${DROP}`)}`,
      '/pg_catalog.pg_authid',
      '/auth.users',
      `/${encodeURIComponent('rt_courses"; select 1; --')}`,
      '/rt_courses/1',
      '/rpc/pg_sleep',
      `/rpc/${encodeURIComponent(`rt_add${DROP}`)}`,
      `/rpc/${encodeURIComponent('rt_add(1,2); drop table public.rt_canary; --')}`,
      '/rpc/set_config',
    ]) {
      const res = await rest(rt.backend, path, { method: path.startsWith('/rpc') ? 'POST' : 'GET', headers: { 'Content-Type': 'application/json' }, body: path.startsWith('/rpc') ? '{}' : undefined });
      await expectError(res);
    }
    const args = await rt.db.rpc('rt_add', { a: 1, [`b := 2); drop table public.rt_canary; --`]: 1 });
    expect(args.status).toBe(404);
    expect(args.error?.code).toBe('PGRST202');
    const argValue = await rt.db.rpc('rt_hello', { name: DROP_SQ });
    expect(argValue.data).toBe(`olá, ${DROP_SQ}`);
    await expectNothingChanged();
  });

  it('operators, modifiers and text search configurations', async () => {
    for (const q of [
      `title=${encodeURIComponent('eq;drop.1')}`,
      `title=${encodeURIComponent('like(any;drop).{a}')}`,
      `title=${encodeURIComponent('fts(english) @@ true;--).x')}`,
      `title=${encodeURIComponent("fts(english'').x")}`,
    ]) {
      await expectError(await rest(rt.backend, `/rt_courses?select=id&${q}`));
    }
    // A configuration that does not exist is an error from the database, not an injection.
    await expectError(await rest(rt.backend, `/rt_courses?select=id&title=fts(nope).x`), [400, 404]);
    await expectNothingChanged();
  });

  it('an anonymous caller cannot switch role through headers or embeds', async () => {
    const res = await rest(rt.backend, '/rt_secrets?select=*', { headers: { 'Accept-Profile': 'public', Prefer: 'tx=commit', Role: 'service_role' } });
    expect(res.status).toBe(401);
    const embed = await rt.db.from('rt_courses').select('id, rt_secrets(value)');
    expect(embed.error?.code).toBe('PGRST200');
    await expectNothingChanged();
  });
});

describe('the client address', () => {
  it("x-forwarded-for is the address the request came from, whatever the client wrote (as the API gateway sets it)", async () => {
    const written: Record<string, string>[] = [{}, { 'X-Forwarded-For': '203.0.113.9' }, { 'X-Forwarded-For': '203.0.113.9, 127.0.0.1' }];
    for (const headers of written) {
      const res = await rest(rt.backend, '/rpc/rt_forwarded_for', { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: '{}' });
      expect(await res.json(), JSON.stringify(headers)).toBe('127.0.0.1');
    }
  });

  it('cf-connecting-ip is the address the request came from too, whatever the client wrote (as Cloudflare sets it on the platform)', async () => {
    const written: Record<string, string>[] = [{}, { 'CF-Connecting-IP': '203.0.113.9' }, { 'CF-Connecting-IP': '203.0.113.9', 'X-Forwarded-For': '198.51.100.1' }];
    for (const headers of written) {
      const res = await rest(rt.backend, '/rpc/rt_connecting_ip', { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: '{}' });
      expect(await res.json(), JSON.stringify(headers)).toBe('127.0.0.1');
    }
  });
});

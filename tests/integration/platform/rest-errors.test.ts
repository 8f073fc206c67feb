// PostgREST's error bodies and statuses from /rest/v1, as supabase-js surfaces them.
import { describe, expect, it } from 'vitest';
import { signJwt } from '../../../local-supabase/jwt.ts';
import { LOCAL_JWT_SECRET } from '../../../local-supabase/config.ts';
import { rest, useRestBackend } from '../rest-fixtures.ts';

// A function raising the SQLSTATE it is given (PostgREST maps PTxyz to HTTP xyz).
const rt = useRestBackend(`create function public.rt_raise(code text) returns void language plpgsql as $$
  begin raise exception 'Muitas tentativas' using errcode = code, detail = 'd', hint = 'h'; end $$;`);

describe('schema errors', () => {
  it('PGRST205 for an unknown table (404)', async () => {
    const r = await rt.db.from('rt_missing').select();
    expect(r.status).toBe(404);
    expect(r.error).toEqual({ code: 'PGRST205', message: "Could not find the table 'public.rt_missing' in the schema cache", details: null, hint: null });
  });

  it('42703 for an unknown column in select, filters and order (400)', async () => {
    for (const r of [
      await rt.db.from('rt_courses').select('id, nope'),
      await rt.db.from('rt_courses').select('id').eq('nope', 1),
      await rt.db.from('rt_courses').select('id').order('nope'),
    ]) {
      expect(r.status).toBe(400);
      expect(r.error).toMatchObject({ code: '42703', message: 'column rt_courses.nope does not exist' });
    }
  });

  it('PGRST200 for a missing relationship, PGRST201 for an ambiguous one', async () => {
    const none = await rt.db.from('rt_courses').select('id, rt_people(name)');
    expect(none.status).toBe(400);
    expect(none.error).toMatchObject({ code: 'PGRST200', message: "Could not find a relationship between 'rt_courses' and 'rt_people' in the schema cache" });
    const many = await rt.db.from('rt_messages').select('id, rt_people(name)');
    expect(many.status).toBe(300);
    expect(many.error?.code).toBe('PGRST201');
    expect(many.error?.hint).toContain("'rt_people!rt_messages_receiver_id_fkey'");
  });

  it('PGRST108 for filters on a resource that is not embedded', async () => {
    const r = await rt.db.from('rt_courses').select('id').eq('rt_modules.id', 1);
    expect(r.status).toBe(400);
    expect(r.error?.code).toBe('PGRST108');
  });
});

describe('grammar errors (PGRST100)', () => {
  it.each([
    ['/rt_courses?select=id,(title', 'select parameter'],
    ['/rt_courses?select=id,rt_modules(title', 'select parameter'],
    ['/rt_courses?id=eqq.1', 'filter'],
    ['/rt_courses?id=1', 'filter'],
    ['/rt_courses?id=in.1,2', 'filter'],
    ['/rt_courses?or=(id.eq.1', 'logic tree'],
    ['/rt_courses?or=id.eq.1', 'logic tree'],
    ['/rt_courses?order=id.sideways', 'order'],
    ['/rt_courses?limit=ten', 'limit'],
    ['/rt_courses?select=id::text;drop', 'select parameter'],
  ])('%s', async (path, what) => {
    const res = await rest(rt.backend, path);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe('PGRST100');
    expect(body.message).toContain(`failed to parse ${what}`);
    expect(body).toHaveProperty('details');
    expect(body).toHaveProperty('hint');
  });
});

describe('value and data errors', () => {
  it('22P02 for a value of the wrong type (400)', async () => {
    const r = await rt.db.from('rt_courses').select('id').eq('id', 'abc');
    expect(r.status).toBe(400);
    expect(r.error).toMatchObject({ code: '22P02', message: 'invalid input syntax for type integer: "abc"' });
  });

  it('PGRST102 for an invalid JSON body', async () => {
    const res = await rest(rt.backend, '/rt_tags', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"id": 1,' });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('PGRST102');
  });

  it('406 for an unsupported Accept header and for a schema that is not exposed', async () => {
    const res = await rest(rt.backend, '/rt_tags', { headers: { Accept: 'application/xml' } });
    expect(res.status).toBe(406);
    const schema = await rest(rt.backend, '/rt_tags', { headers: { 'Accept-Profile': 'auth' } });
    expect(schema.status).toBe(406);
    expect((await schema.json()).code).toBe('PGRST106');
  });
});

describe('errors a function raises with its own HTTP status', () => {
  it("raise sqlstate 'PT429' answers 429 with that code; PT not followed by a number answers 500", async () => {
    const limited = await rt.db.rpc('rt_raise', { code: 'PT429' });
    expect(limited.status).toBe(429);
    expect(limited.error).toEqual({ code: 'PT429', message: 'Muitas tentativas', details: 'd', hint: 'h' });
    expect((await rt.db.rpc('rt_raise', { code: 'PT402' })).status).toBe(402);
    const bad = await rt.db.rpc('rt_raise', { code: 'PT40A' });
    expect([bad.status, bad.error?.code]).toEqual([500, 'PT40A']);
    // Other codes keep their mapping.
    expect((await rt.db.rpc('rt_raise', { code: 'P0001' })).status).toBe(400);
  });
});

describe('JWT errors', () => {
  it('401 PGRST301 for a malformed or forged token, PGRST303 for an expired one', async () => {
    const garbage = await rt.backend.clientWithToken('not-a-jwt').from('rt_tags').select();
    expect(garbage.status).toBe(401);
    expect(garbage.error?.code).toBe('PGRST301');
    const forged = await signJwt({ sub: 'x', role: 'service_role' }, 'another-secret-that-is-at-least-32-chars');
    const f = await rt.backend.clientWithToken(forged).from('rt_secrets').select();
    expect(f.status).toBe(401);
    expect(f.error?.code).toBe('PGRST301');
    const expired = await rt.backend.jwtUser({ expiresIn: -60 });
    const e = await expired.client.from('rt_tags').select();
    expect(e.status).toBe(401);
    expect(e.error).toMatchObject({ code: 'PGRST303', message: 'JWT expired' });
    const badRole = await signJwt({ sub: 'x', role: 'postgres' }, LOCAL_JWT_SECRET);
    const b = await rt.backend.clientWithToken(badRole).from('rt_secrets').select();
    expect(b.status).toBe(401);
  });
});

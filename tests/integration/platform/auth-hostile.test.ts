// What an attacker sees: forged, malformed and expired JWTs, SQL in emails and bodies, error shapes.
import { beforeAll, describe, expect, it } from 'vitest';
import { authFetch, signToken, signUpConfirmed, uniqueEmail } from '../auth-helpers.ts';
import { ANON_KEY, useBackend } from '../harness.ts';

const backend = useBackend();
let victimId: string;
let victimSession: string;
beforeAll(async () => {
  const signup = await signUpConfirmed(backend, uniqueEmail('victim'), 'segredo1');
  victimId = signup.user.id;
  victimSession = (await backend.server.ctx.engine.query<{ id: string }>('select id::text as id from auth.sessions where user_id = $1', [victimId])).rows[0]!.id;
});

const countUsers = async () =>
  (await backend.server.ctx.engine.query<{ n: number }>('select count(*)::int as n from auth.users')).rows[0]!.n;

describe('JWTs on /user', () => {
  const claims = () => ({ sub: victimId, role: 'authenticated', aud: 'authenticated', session_id: victimSession });

  it('accepts a well-formed token of a live session', async () => {
    const res = await authFetch(backend.url, '/user', { token: await signToken(claims()) });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(victimId);
  });

  it('refuses malformed, forged, expired and alg=none tokens with 403 bad_jwt', async () => {
    const valid = await signToken(claims());
    const [header, payload] = valid.split('.');
    const noneHeader = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const tokens = {
      garbage: 'not-a-jwt',
      truncated: `${header}.${payload}`,
      badSignature: `${valid.slice(0, -6)}AAAAAA`,
      otherSecret: await signToken(claims(), { secret: 'an-attacker-secret-that-is-at-least-32-chars' }),
      expired: await signToken(claims(), { expiresIn: -60 }),
      algNone: `${noneHeader}.${payload}.`,
      sqlInToken: `'or'1'='1'--.${payload}.x`,
    };
    for (const [name, token] of Object.entries(tokens)) {
      const res = await authFetch(backend.url, '/user', { token });
      expect(res.status, name).toBe(403);
      expect(res.body.code, name).toBe('bad_jwt');
      expect(String(res.body.message), name).toMatch(/^invalid JWT: unable to parse or verify signature/);
    }
    const expired = await authFetch(backend.url, '/user', { token: tokens.expired });
    expect(String(expired.body.message)).toContain('token is expired');
  });

  it('refuses a missing bearer, the anon key, a bad sub and a session that does not exist', async () => {
    const none = await fetch(`${backend.url}/auth/v1/user`, { headers: { apikey: ANON_KEY } });
    expect(none.status).toBe(401);
    const anonKey = await authFetch(backend.url, '/user', { token: ANON_KEY });
    expect(anonKey.status).toBe(403);
    expect(anonKey.body).toEqual({ code: 'bad_jwt', message: 'invalid claim: missing sub claim' });
    const sqlSub = await authFetch(backend.url, '/user', { token: await signToken({ ...claims(), sub: "x' or '1'='1" }) });
    expect(sqlSub.status).toBe(400);
    expect(sqlSub.body.code).toBe('bad_jwt');
    const ghost = await authFetch(backend.url, '/user', {
      token: await signToken({ ...claims(), sub: '00000000-0000-4000-8000-000000000000' }),
    });
    expect(ghost.status).toBe(403);
    expect(ghost.body.code).toBe('user_not_found');
    const noSession = await authFetch(backend.url, '/user', {
      token: await signToken({ ...claims(), session_id: '00000000-0000-4000-8000-000000000001' }),
    });
    expect(noSession.status).toBe(403);
    expect(noSession.body.code).toBe('session_not_found');
  });

  it('an expired token through supabase-js getUser is an error, not a user', async () => {
    const { data, error } = await backend.anon().auth.getUser(await signToken(claims(), { expiresIn: -1 }));
    expect(data.user).toBeNull();
    expect(error?.status).toBe(403);
  });

  it('PUT /user and /logout refuse forged tokens and change nothing', async () => {
    const forged = await signToken(claims(), { secret: 'an-attacker-secret-that-is-at-least-32-chars' });
    const put = await authFetch(backend.url, '/user', { method: 'PUT', token: forged, body: { password: 'hijacked1' } });
    expect(put.status).toBe(403);
    const out = await authFetch(backend.url, '/logout', { method: 'POST', token: forged });
    expect(out.status).toBe(403);
    const sessions = await backend.server.ctx.engine.query('select 1 from auth.sessions where id = $1', [victimSession]);
    expect(sessions.rows).toHaveLength(1);
  });
});

describe('SQL-ish input', () => {
  it('stores an email with quotes verbatim (it is a valid address) and signs it in', async () => {
    const email = `o'brien'--${Date.now()}@example.com`;
    const before = await countUsers();
    const { user } = await signUpConfirmed(backend, email, "p'; drop table auth.users; --");
    expect(user.email).toBe(email);
    expect(await countUsers()).toBe(before + 1);
    const stored = await backend.server.ctx.engine.query<{ email: string }>('select email from auth.users where id = $1', [user.id]);
    expect(stored.rows[0]!.email).toBe(email);
    expect((await backend.anon().auth.signInWithPassword({ email, password: "p'; drop table auth.users; --" })).error).toBeNull();
  });

  it('refuses injection attempts that are not email addresses, changing nothing', async () => {
    const before = await countUsers();
    for (const email of [
      "x@example.com'; delete from auth.users; --",
      "' or '1'='1",
      'a@b.com" or ""="',
      'admin@example.com\u0000',
      `${'a'.repeat(250)}@example.com`,
    ]) {
      const res = await authFetch(backend.url, '/signup', { method: 'POST', body: { email, password: 'segredo1' } });
      expect(res.status, email).toBe(400);
      expect(res.body.code, email).toBe('validation_failed');
    }
    const login = await backend.anon().auth.signInWithPassword({ email: "' or '1'='1", password: "' or '1'='1" });
    expect(login.error?.code).toBe('invalid_credentials');
    const wildcard = await backend.anon().auth.signInWithPassword({ email: '%', password: 'segredo1' });
    expect(wildcard.error?.code).toBe('invalid_credentials');
    expect(await countUsers()).toBe(before);
  });

  it('refuses bodies that are not JSON objects or have wrong types', async () => {
    const notJson = await authFetch(backend.url, '/signup', { method: 'POST', body: '{"email":' });
    expect(notJson.status).toBe(400);
    expect(notJson.body.code).toBe('bad_json');
    const array = await authFetch(backend.url, '/token?grant_type=password', { method: 'POST', body: '[1,2]' });
    expect(array.status).toBe(400);
    const wrongType = await authFetch(backend.url, '/token?grant_type=password', {
      method: 'POST',
      body: { email: { $ne: null }, password: 'x' },
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.code).toBe('bad_json');
    const metadataArray = await authFetch(backend.url, '/signup', {
      method: 'POST',
      body: { email: uniqueEmail(), password: 'segredo1', data: ['not', 'an', 'object'] },
    });
    expect(metadataArray.status).toBe(400);
  });

  it('stores hostile metadata as data', async () => {
    const data = { name: "Robert'); drop table public.profiles; --", "key'": { nested: '$1' } };
    const { data: out, error } = await backend.anon().auth.signUp({ email: uniqueEmail('meta'), password: 'segredo1', options: { data } });
    expect(error).toBeNull();
    expect(out.user!.user_metadata).toEqual(data);
  });
});

describe('error bodies', () => {
  it('uses {code, message} for API version 2024-01-01 and {code, error_code, msg} without it', async () => {
    const body = { email: uniqueEmail('nobody'), password: 'whatever1' };
    const v2024 = await authFetch(backend.url, '/token?grant_type=password', { method: 'POST', body });
    expect(v2024.status).toBe(400);
    expect(v2024.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(v2024.body).toEqual({ code: 'invalid_credentials', message: 'Invalid login credentials' });

    const legacy = await authFetch(backend.url, '/token?grant_type=password', { method: 'POST', body, apiVersion: null });
    expect(legacy.status).toBe(400);
    expect(legacy.body).toEqual({ code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials' });

    const weak = await authFetch(backend.url, '/signup', { method: 'POST', body: { email: uniqueEmail(), password: '1' }, apiVersion: null });
    expect(weak.status).toBe(422);
    expect(weak.body).toEqual({
      code: 422,
      error_code: 'weak_password',
      msg: 'Password should be at least 6 characters.',
      weak_password: { reasons: ['length'] },
    });
    expect(weak.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers 404 for unknown paths', async () => {
    expect((await authFetch(backend.url, '/nope')).status).toBe(404);
  });
});

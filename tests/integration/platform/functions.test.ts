// Edge functions run in real Deno behind /functions/v1, called through supabase.functions.invoke:
// JWT verification as Supabase's gateway does it, verify_jwt = false from config.toml, environment
// and secrets, streamed bodies both ways, and a crashing function that does not take the server down.
import { beforeAll, describe, expect, it } from 'vitest';
import { FunctionsHttpError } from '@supabase/supabase-js';
import { signJwt } from '../../../local-supabase/jwt.ts';
import { LOCAL_JWT_SECRET } from '../../../local-supabase/config.ts';
import { ANON_KEY, FIXTURE_FUNCTIONS_DIR, startTestBackend, useBackend, type JwtUser } from '../harness.ts';

const backend = useBackend({ functionsDir: FIXTURE_FUNCTIONS_DIR });
let alice: JwtUser;
beforeAll(async () => {
  alice = await backend.jwtUser();
});

const call = (name: string, init: RequestInit = {}) => fetch(`${backend.url}/functions/v1/${name}`, init);

describe('invoking a function', () => {
  it('runs it in Deno with the caller’s request and the Supabase variables and secrets', { timeout: 60_000 }, async () => {
    const { data, error } = await alice.client.functions.invoke('echo', {
      body: { hello: 'mundo' },
      headers: { 'x-custom': 'value' },
    });
    expect(error).toBeNull();
    expect(data).toMatchObject({
      method: 'POST',
      path: '/echo',
      authorization: `Bearer ${alice.jwt}`,
      custom: 'value',
      contentType: 'application/json',
      body: JSON.stringify({ hello: 'mundo' }),
      env: {
        SUPABASE_URL: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
        hasAnonKey: true,
        hasServiceRoleKey: true,
        ECHO_SECRET: 'from dotenv',
        OTHER_SECRET: 'plain',
        leaksServerEnv: false,
      },
    });
  });

  it('passes method, sub-path and query through', async () => {
    const res = await call('echo/sub/path?x=1&y=dois', { method: 'GET', headers: { Authorization: `Bearer ${ANON_KEY}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ method: 'GET', path: '/echo/sub/path', search: '?x=1&y=dois' });
  });

  it('accepts the anon key as a JWT (what supabase-js sends when signed out)', async () => {
    const { data, error } = await backend.anon().functions.invoke('echo', { body: 'texto' });
    expect(error).toBeNull();
    expect(data).toMatchObject({ body: 'texto', authorization: `Bearer ${ANON_KEY}` });
  });

  it('keeps one long-lived process per function', async () => {
    const first = await backend.anon().functions.invoke('echo');
    const second = await backend.anon().functions.invoke('echo');
    expect(first.data.pid).toBe(second.data.pid);
  });

  it('assigns the port even when the function asks Deno.serve for one', async () => {
    const { data, error } = await backend.anon().functions.invoke('serve-options');
    expect(error).toBeNull();
    expect(data).toBe('served with options');
  });

  it('streams request and response bodies', async () => {
    const size = 5 * 1024 * 1024;
    const res = await call('stream?chunks=4', {
      method: 'POST',
      headers: { Authorization: `Bearer ${ANON_KEY}`, 'Content-Type': 'application/octet-stream' },
      body: new Uint8Array(size),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-received')).toBe(String(size));
    expect(await res.text()).toBe(
      [1, 2, 3, 4].map((i) => `chunk ${i} of 4, received ${size}\n`).join(''),
    );
  });

  it('runs a function that imports supabase-js from npm and calls back into this server', { timeout: 120_000 }, async () => {
    await backend.server.ctx.engine.exec(`insert into storage.buckets (id, name) values ('fx-from-function', 'fx-from-function')`);
    const { data, error } = await backend.anon().functions.invoke('with-supabase-js');
    expect(error).toBeNull();
    expect(data).toMatchObject({ error: null, buckets: expect.arrayContaining(['fx-from-function']) });
  });
});

describe('JWT verification', () => {
  it('refuses a call without an Authorization header', async () => {
    const res = await call('echo', { method: 'POST', headers: { apikey: ANON_KEY } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ msg: 'Error: Missing authorization header' });
  });

  it('refuses forged, expired and malformed tokens', async () => {
    const forged = await signJwt({ sub: alice.id, role: 'authenticated' }, 'another-secret-that-is-long-enough-to-sign', 3600);
    const expired = await signJwt({ sub: alice.id, role: 'authenticated' }, LOCAL_JWT_SECRET, -10);
    for (const token of [forged, expired, 'garbage']) {
      const res = await call('echo', { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ msg: 'Invalid JWT' });
    }
    const basic = await call('echo', { method: 'POST', headers: { Authorization: 'Basic abc' } });
    expect(await basic.json()).toEqual({ msg: "Error: Auth header is not 'Bearer {token}'" });

    const client = (await backend.jwtUser()).client;
    client.functions.setAuth(forged);
    const { error } = await client.functions.invoke('echo');
    expect(error).toBeInstanceOf(FunctionsHttpError);
    expect((error as FunctionsHttpError).context.status).toBe(401);
  });

  it('skips verification when config.toml sets verify_jwt = false', async () => {
    const res = await call('public-hook', { method: 'POST', body: '{}' });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ ok: true, hadAuthorization: false });
    const withBadToken = await call('public-hook', { method: 'POST', headers: { Authorization: 'Bearer garbage' } });
    expect(withBadToken.status).toBe(202);
  });
});

describe('failures', () => {
  it('answers 404 for an unknown function, shared code or a hostile name', async () => {
    for (const name of ['nope', '_shared', '..%2F..%2Fetc', 'echo%2F..%2F..%2Fboot-fail']) {
      const res = await call(name, { method: 'POST', headers: { Authorization: `Bearer ${ANON_KEY}` } });
      expect(res.status, name).toBe(404);
      expect(await res.json()).toEqual({ code: 'NOT_FOUND', message: 'Requested function was not found' });
    }
  });

  it('survives a crashing function and restarts it on the next call', async () => {
    const { data: before } = await backend.anon().functions.invoke('crash');
    const crashed = await call('crash/exit', { method: 'POST', headers: { Authorization: `Bearer ${ANON_KEY}` } });
    expect(crashed.status).toBe(500);
    expect(await crashed.json()).toMatchObject({ code: 'WORKER_ERROR' });

    expect((await fetch(`${backend.url}/health`)).status).toBe(200);
    const { data: after, error } = await backend.anon().functions.invoke('crash');
    expect(error).toBeNull();
    expect(after.pid).not.toBe(before.pid);
  });

  it('reports a function that fails to boot with 503, and keeps serving the others', async () => {
    const res = await call('boot-fail', { method: 'POST', headers: { Authorization: `Bearer ${ANON_KEY}` } });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ code: 'BOOT_ERROR', message: 'Function failed to start (please check logs)' });
    expect((await backend.anon().functions.invoke('echo')).error).toBeNull();
  });

  it('kills every Deno process on close', { timeout: 120_000 }, async () => {
    const own = await startTestBackend({ functionsDir: FIXTURE_FUNCTIONS_DIR });
    // Concurrent first calls share one new process.
    const calls = await Promise.all([1, 2, 3].map(() => own.anon().functions.invoke('echo')));
    const pid = calls[0].data.pid as number;
    expect(calls.map((c) => c.data.pid)).toEqual([pid, pid, pid]);
    expect(() => process.kill(pid, 0)).not.toThrow();
    await own.stop();
    expect(() => process.kill(pid, 0)).toThrow();
  });
});

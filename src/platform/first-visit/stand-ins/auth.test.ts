// The auth stand-in (./auth.ts) must answer as auth-js would: the stored session only while auth-js
// would use it as it is, and every other call through the real client (here the real auth-js, with a
// recording fetch for the auth server).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthChangeEvent, Session } from '@supabase/auth-js';
import { AuthClient } from './auth';

const KEY = 'sb-test-auth-token';
const user = {
  id: 'a0000000-0000-4000-8000-000000000011',
  aud: 'authenticated',
  email: 'aluno@escola-demo.com.br',
  app_metadata: {},
  user_metadata: {},
  created_at: '2026-01-01T00:00:00Z',
};

function session(expiresInSec: number, token = 'stored-token'): Session {
  return {
    access_token: token,
    refresh_token: 'stored-refresh',
    expires_in: expiresInSec,
    expires_at: Math.floor(Date.now() / 1000) + expiresInSec,
    token_type: 'bearer',
    user,
  } as Session;
}

/** The auth server: a refresh answers a new session; anything else 200 {}. */
function authServer() {
  const calls: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    calls.push(url);
    const body = url.includes('grant_type=refresh_token')
      ? session(3600, 'refreshed-token')
      : url.endsWith('/user')
        ? user
        : {};
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  return { fetch, calls };
}

function client(fetch: typeof globalThis.fetch) {
  return new AuthClient({
    url: 'http://auth.test/auth/v1',
    storageKey: KEY,
    persistSession: true,
    autoRefreshToken: false,
    detectSessionInUrl: true,
    fetch,
  });
}

function events(c: AuthClient) {
  const seen: [AuthChangeEvent, string | undefined][] = [];
  const { data } = c.onAuthStateChange((event, s) => void seen.push([event, s?.access_token]));
  return { seen, unsubscribe: () => data.subscription.unsubscribe() };
}

beforeEach(() => {
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});
afterEach(() => vi.restoreAllMocks());

describe('auth stand-in', () => {
  it('answers a stored session valid beyond the refresh margin without the auth server', async () => {
    localStorage.setItem(KEY, JSON.stringify(session(3600)));
    const server = authServer();
    const c = client(server.fetch);
    const { seen } = events(c);
    const { data } = await c.getSession();
    expect(data.session?.access_token).toBe('stored-token');
    await vi.waitFor(() => expect(seen).toEqual([['INITIAL_SESSION', 'stored-token']]));
    expect(server.calls).toEqual([]);
    // Once auth-js has loaded (any other call), the listener is not told that session again, nor
    // auth-js's start-up SIGNED_IN for it: it heard of it once, as from a client made at the start.
    await (c.mfa as { listFactors: () => Promise<unknown> }).listFactors();
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual([['INITIAL_SESSION', 'stored-token']]);
  });

  it('hands a session about to expire to auth-js, which refreshes it first', async () => {
    localStorage.setItem(KEY, JSON.stringify(session(60)));
    const server = authServer();
    const c = client(server.fetch);
    const { seen } = events(c);
    const { data } = await c.getSession();
    expect(data.session?.access_token).toBe('refreshed-token');
    expect(server.calls.some((u) => u.includes('grant_type=refresh_token'))).toBe(true);
    await vi.waitFor(() => expect(seen.map(([e]) => e)).toContain('INITIAL_SESSION'));
    expect(seen.every(([, token]) => token === 'refreshed-token')).toBe(true);
  });

  it('leaves an auth link in the URL to auth-js, even with a valid stored session', async () => {
    localStorage.setItem(KEY, JSON.stringify(session(3600)));
    window.history.replaceState(
      null,
      '',
      '/#access_token=link-token&refresh_token=link-refresh&expires_in=3600&token_type=bearer&type=recovery',
    );
    const c = client(authServer().fetch);
    // The link's session, not the stored one: auth-js read the URL.
    expect((await c.getSession()).data.session?.access_token).toBe('link-token');
  });

  it('leaves a client with its own storage to auth-js: the stand-in reads only the default one', async () => {
    localStorage.setItem(KEY, JSON.stringify(session(3600)));
    const own = new Map([[KEY, JSON.stringify(session(3600, 'own-storage-token'))]]);
    const c = new AuthClient({
      url: 'http://auth.test/auth/v1',
      storageKey: KEY,
      persistSession: true,
      autoRefreshToken: false,
      storage: {
        getItem: (k) => own.get(k) ?? null,
        setItem: (k, v) => void own.set(k, v),
        removeItem: (k) => void own.delete(k),
      },
      fetch: authServer().fetch,
    });
    expect((await c.getSession()).data.session?.access_token).toBe('own-storage-token');
  });

  it('has no session to answer without one stored: auth-js says so', async () => {
    const c = client(authServer().fetch);
    const { seen } = events(c);
    expect((await c.getSession()).data.session).toBeNull();
    await vi.waitFor(() => expect(seen).toEqual([['INITIAL_SESSION', undefined]]));
  });

  it('forwards every other call to auth-js, and its events to the listeners registered before it loaded', async () => {
    localStorage.setItem(KEY, JSON.stringify(session(3600)));
    const server = authServer();
    const c = client(server.fetch);
    const { seen } = events(c);
    const gone = events(c);
    gone.unsubscribe();
    await c.getSession();
    const signOut = (c as unknown as { signOut: () => Promise<{ error: unknown }> }).signOut;
    expect((await signOut()).error).toBeNull();
    expect(server.calls.some((u) => u.endsWith('/logout?scope=global'))).toBe(true);
    await vi.waitFor(() => expect(seen.at(-1)).toEqual(['SIGNED_OUT', undefined]));
    expect(gone.seen.filter(([e]) => e === 'SIGNED_OUT')).toEqual([]);
    expect(localStorage.getItem(KEY)).toBeNull();
    // Once signed out, nothing stored is answered any more.
    expect((await c.getSession()).data.session).toBeNull();
  });

  it('forwards the two-factor calls', async () => {
    localStorage.setItem(KEY, JSON.stringify(session(3600)));
    const server = authServer();
    const c = client(server.fetch);
    const mfa = c.mfa as { listFactors: () => Promise<{ data: { all: unknown[] } | null; error: unknown }> };
    const { error } = await mfa.listFactors();
    expect(error).toBeNull();
  });
});

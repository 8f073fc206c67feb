// GoTrue's per-IP request limits ([auth.rate_limit] of supabase/config.toml, per 5 minutes), as an
// attacker guessing passwords from one address sees them: the 31st attempt gets 429 in GoTrue's shape,
// a made-up X-Forwarded-For does not buy a fresh budget, and refreshes have a budget of their own.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAuthRateLimits } from '../../../local-supabase/config.ts';
import { ANON_KEY, useBackend } from '../harness.ts';
import { authFetch, signUpConfirmed, uniqueEmail } from '../auth-helpers.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

const wrongPassword = (url: string, email: string, apiVersion: string | null = null, headers: Record<string, string> = {}) =>
  fetch(`${url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: ANON_KEY, 'Content-Type': 'application/json', ...(apiVersion ? { 'X-Supabase-Api-Version': apiVersion } : {}), ...headers },
    body: JSON.stringify({ email, password: 'errada-123' }),
  });

describe('config.toml', () => {
  it('has the platform values, and AUTH_RATE_LIMIT_* variables win over them', () => {
    const toml = readFileSync(path.join(ROOT, 'supabase', 'config.toml'), 'utf8');
    expect(readAuthRateLimits(toml)).toEqual({ signInSignUps: 30, tokenRefresh: 150, tokenVerifications: 30 });
    expect(readAuthRateLimits(toml, { AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '0' }).signInSignUps).toBe(0);
    expect(readAuthRateLimits('')).toEqual({ signInSignUps: 30, tokenRefresh: 150, tokenVerifications: 30 });
    expect(() => readAuthRateLimits('[auth.rate_limit]\ntoken_refresh = "muitos"\n')).toThrow(/token_refresh/);
  });
});

describe('with the platform limits (config.toml)', () => {
  const backend = useBackend({ authRateLimits: 'config' });

  it('refuses the 31st sign-in in 5 minutes from one address with 429, also to the right password and to sign-ups', async () => {
    const email = uniqueEmail('forca-bruta');
    // Attempt 1: the owner signs up (sign-ups share the budget) and keeps the session its confirmation
    // link opened (verifications have a budget of their own).
    const { refreshToken } = await signUpConfirmed(backend, email, 'certa-123', { name: 'Vítima' });

    // Attempts 2..30: wrong passwords, answered as usual.
    for (let i = 2; i <= 30; i++) {
      const res = await wrongPassword(backend.url, email);
      expect(res.status, `attempt ${i}`).toBe(400);
      expect(await res.json()).toMatchObject({ error_code: 'invalid_credentials' });
    }

    // Attempt 31: GoTrue's initial error shape for clients without an API version...
    const res = await wrongPassword(backend.url, email);
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ code: 429, error_code: 'over_request_rate_limit', msg: 'Request rate limit reached' });
    // ...and the 2024-01-01 shape auth-js reads.
    const v2024 = await wrongPassword(backend.url, email, '2024-01-01');
    expect(v2024.status).toBe(429);
    expect(await v2024.json()).toEqual({ code: 'over_request_rate_limit', message: 'Request rate limit reached' });

    // What supabase-js users see: even the right password is refused for now.
    const right = await backend.anon().auth.signInWithPassword({ email, password: 'certa-123' });
    expect(right.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    expect(right.data.session).toBeNull();
    const signUp = await backend.anon().auth.signUp({ email: uniqueEmail('outro'), password: 'certa-123' });
    expect(signUp.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });

    // A made-up X-Forwarded-For is not a new address.
    const spoofed = await wrongPassword(backend.url, email, null, { 'X-Forwarded-For': '203.0.113.9' });
    expect(spoofed.status).toBe(429);

    // Refreshes have their own budget (token_refresh = 150): the signed-in owner keeps working.
    const refresh = await authFetch(backend.url, '/token?grant_type=refresh_token', { method: 'POST', body: { refresh_token: refreshToken } });
    expect(refresh.status).toBe(200);
    expect(refresh.body.access_token).toEqual(expect.any(String));
  });
});

describe('with limits set for the test backend', () => {
  const backend = useBackend({ authRateLimits: { signInSignUps: 0, tokenRefresh: 3, tokenVerifications: 2 } });

  it('0 means no limit: 40 wrong passwords all get 400', async () => {
    const email = uniqueEmail('sem-limite');
    for (let i = 1; i <= 40; i++) expect((await wrongPassword(backend.url, email)).status, `attempt ${i}`).toBe(400);
  });

  it('token_refresh counts refresh grants, valid or not', async () => {
    const { client } = await backend.signedInAccount({ prefix: 'renova', password: 'certa-123' });
    let token = (await client.auth.getSession()).data.session!.refresh_token;
    for (let i = 1; i <= 2; i++) {
      const r = await authFetch(backend.url, '/token?grant_type=refresh_token', { method: 'POST', body: { refresh_token: token } });
      expect(r.status).toBe(200);
      token = r.body.refresh_token as string;
    }
    const bogus = await authFetch(backend.url, '/token?grant_type=refresh_token', { method: 'POST', body: { refresh_token: 'nao-existe' } });
    expect(bogus.status).toBe(400);
    const fourth = await authFetch(backend.url, '/token?grant_type=refresh_token', { method: 'POST', body: { refresh_token: token } });
    expect(fourth.status).toBe(429);
    expect(fourth.body).toEqual({ code: 'over_request_rate_limit', message: 'Request rate limit reached' });
  });

  it('token_verifications counts /verify', async () => {
    for (let i = 1; i <= 2; i++) {
      const r = await authFetch(backend.url, '/verify', { method: 'POST', body: { type: 'recovery', token_hash: `palpite-${i}` } });
      expect(r.status).toBe(403);
    }
    const third = await authFetch(backend.url, '/verify', { method: 'POST', body: { type: 'recovery', token_hash: 'palpite-3' } });
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ code: 'over_request_rate_limit' });
  });
});

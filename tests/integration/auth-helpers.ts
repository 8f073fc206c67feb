// Shared bits of the auth-*.test.ts files: raw HTTP calls (to see GoTrue's exact bodies and statuses),
// unique emails, JWT payloads.
import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { LOCAL_JWT_SECRET } from '../../local-supabase/config.ts';
import { ANON_KEY } from './harness.ts';


export const uniqueEmail = (prefix = 'user') => `${prefix}-${randomBytes(5).toString('hex')}@example.com`;

export interface RawResponse {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** A request to /auth/v1 as auth-js makes it (API version 2024-01-01) unless `apiVersion` is null. */
export async function authFetch(
  baseUrl: string,
  path: string,
  init: { method?: string; body?: unknown; token?: string | null; apiVersion?: string | null } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { apikey: ANON_KEY, 'Content-Type': 'application/json' };
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  if (init.apiVersion !== null) headers['X-Supabase-Api-Version'] = init.apiVersion ?? '2024-01-01';
  const res = await fetch(`${baseUrl}/auth/v1${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
    redirect: 'manual',
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

export function jwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** A token signed with the project's secret (or another one), for forged/expired-token tests. */
export async function signToken(claims: Record<string, unknown>, options: { secret?: string; expiresIn?: number } = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now - 7200)
    .setExpirationTime(now + (options.expiresIn ?? 3600))
    .sign(new TextEncoder().encode(options.secret ?? LOCAL_JWT_SECRET));
}

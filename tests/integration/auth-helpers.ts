// Shared bits of the auth-*.test.ts files: raw HTTP calls (to see GoTrue's exact bodies and statuses),
// unique emails, JWT payloads.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import type { User } from '@supabase/supabase-js';
import { expect } from 'vitest';
import { settled } from '../../local-supabase/auth/background.ts';
import { LOCAL_ANON_KEY as ANON_KEY, LOCAL_JWT_SECRET } from '../../local-supabase/config.ts';
import type { BackendLike } from './harness.ts';


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

export interface InboxMessage {
  id: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  from: string | null;
  reply_to: string | null;
  headers: Record<string, string>;
  links: string[];
  sent_at: string;
}

/** The local inbox of `to`, newest first, once the e-mails auth writes after answering are out. */
export async function inbox(backend: BackendLike, to: string): Promise<InboxMessage[]> {
  await settled(backend.server.ctx);
  const res = await fetch(`${backend.url}/inbox/api/messages?to=${encodeURIComponent(to)}`);
  expect(res.status).toBe(200);
  return (await res.json()) as InboxMessage[];
}

/** Follows an e-mailed link as a browser would: GoTrue's 303 and the fragment it put on the redirect. */
export async function openLink(link: string) {
  const res = await fetch(link, { redirect: 'manual' });
  expect(res.status).toBe(303);
  const location = new URL(res.headers.get('location')!);
  return { location, fragment: new URLSearchParams(location.hash.slice(1)) };
}

export const CONFIRMATION_SUBJECT = 'Confirme seu cadastro';

/** The newest confirmation link mailed to `email`. */
export async function confirmationLink(backend: BackendLike, email: string): Promise<string> {
  const mail = (await inbox(backend, email)).find((m) => m.subject === CONFIRMATION_SUBJECT);
  expect(mail, `a confirmation e-mail to ${email}`).toBeTruthy();
  return mail!.links[0]!;
}

/**
 * A sign-up through supabase-js confirmed as its owner would (the link in the inbox): what a test
 * that needs an ordinary account of its own uses. Returns the user and the session the link opened.
 */
export async function signUpConfirmed(
  backend: BackendLike,
  email: string,
  password: string,
  data?: Record<string, unknown>,
): Promise<{ user: User; accessToken: string; refreshToken: string }> {
  const { data: out, error } = await backend.anon().auth.signUp({ email, password, options: data ? { data } : undefined });
  expect(error).toBeNull();
  expect(out.session).toBeNull();
  const { fragment } = await openLink(await confirmationLink(backend, email));
  const accessToken = fragment.get('access_token');
  expect(accessToken, 'the confirmation link opens a session').toBeTruthy();
  const { data: u } = await backend.anon().auth.getUser(accessToken!);
  return { user: u.user!, accessToken: accessToken!, refreshToken: fragment.get('refresh_token')! };
}

/**
 * Times requests from a process of its own (fixtures/timed-client.mjs): in this process the server
 * shares the event loop, so work it does after answering would be counted against the answer.
 */
export async function timedClient(baseUrl: string) {
  const { fork } = await import('node:child_process');
  const child = fork(new URL('./fixtures/timed-client.mjs', import.meta.url), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise<void>((resolve) => child.once('message', () => resolve()));
  return {
    /** POSTs `body` to /auth/v1`path` as auth-js does; milliseconds until the whole answer arrived. */
    post(path: string, body: unknown): Promise<{ ms: number; status: number }> {
      return new Promise((resolve) => {
        child.once('message', (m) => resolve(m as { ms: number; status: number }));
        child.send({
          url: `${baseUrl}/auth/v1${path}`,
          headers: { apikey: ANON_KEY, 'Content-Type': 'application/json', 'X-Supabase-Api-Version': '2024-01-01' },
          body: JSON.stringify(body),
        });
      });
    },
    close: () => void child.kill(),
  };
}

/** P(a random x from `xs` is larger than a random y from `ys`), ties half: 0.5 when they cannot be told apart. */
export function auc(xs: number[], ys: number[]): number {
  let wins = 0;
  for (const x of xs) for (const y of ys) wins += x > y ? 1 : x === y ? 0.5 : 0;
  return wins / (xs.length * ys.length);
}

export function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/**
 * A project of the test's own for startTestBackend({ rootDir }): this project's supabase/ folder
 * (linked) with lines set in tables of its config.toml (`{ auth: ['signing_keys_path = ...'] }`,
 * each table already there, a key it sets replaced), and `files` written beside it (a signing-keys file).
 */
export function projectWithConfig(settings: Record<string, string[]>, files: Record<string, string> = {}): { dir: string; remove(): void } {
  const root = path.resolve(import.meta.dirname, '..', '..');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'auth-project-'));
  mkdirSync(path.join(dir, 'supabase'));
  for (const entry of readdirSync(path.join(root, 'supabase'))) {
    if (entry !== 'config.toml') symlinkSync(path.join(root, 'supabase', entry), path.join(dir, 'supabase', entry));
  }
  // Each line replaces the same key of its table, if the table sets it.
  const out: string[] = [];
  let table = '';
  const seen = new Set<string>();
  for (const line of readFileSync(path.join(root, 'supabase', 'config.toml'), 'utf8').split('\n')) {
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) table = header[1]!;
    const key = /^([A-Za-z0-9_-]+)\s*=/.exec(line)?.[1];
    if (!header && key && settings[table]?.some((l) => l.startsWith(`${key} `) || l.startsWith(`${key}=`))) continue;
    out.push(line);
    if (header && settings[table]) {
      out.push(...settings[table]!);
      seen.add(table);
    }
  }
  expect([...seen].sort()).toEqual(Object.keys(settings).sort());
  writeFileSync(path.join(dir, 'supabase', 'config.toml'), out.join('\n'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, 'supabase', name), text);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

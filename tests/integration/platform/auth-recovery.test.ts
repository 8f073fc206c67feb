// Password recovery end to end over HTTP: /recover mails the link to the local inbox (/inbox), the
// link opens a recovery session once, the new password replaces the old one, and the per-address
// e-mail limit of supabase/config.toml answers GoTrue's 429 alike for known and unknown addresses.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { settled } from '../../../local-supabase/auth/background.ts';
import { authFetch, inbox as inboxOf, jwtPayload, openLink, uniqueEmail, type InboxMessage } from '../auth-helpers.ts';
import { useBackend } from '../harness.ts';

const backend = useBackend();
const inbox = (to: string) => inboxOf(backend, to);

const recover = (email: string, redirectTo = 'http://localhost:5173/escola-demo', apiVersion: string | null = null) =>
  authFetch(backend.url, `/recover?redirect_to=${encodeURIComponent(redirectTo)}`, {
    method: 'POST',
    body: { email },
    apiVersion,
  });

/** A confirmed student of her own (the admin API: no confirmation e-mail in the inbox). */
const newStudent = async (password = 'antiga123') => (await backend.createAccount({ prefix: 'recupera', password, name: 'Rita Recupera' })).email;

describe('recovery e-mail in the local inbox', () => {
  it('answers {} for known and unknown addresses, and only the known one gets the pt-BR e-mail', async () => {
    const known = await newStudent();
    const unknown = uniqueEmail('ninguem');
    const a = await recover(known);
    const b = await recover(unknown);
    expect([a.status, a.body]).toEqual([200, {}]);
    expect([b.status, b.body]).toEqual([200, {}]);

    expect(await inbox(unknown)).toEqual([]);
    const mails = await inbox(known.toUpperCase());
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.to).toBe(known);
    expect(mail.subject).toBe('Redefinir senha');
    expect(mail.text).toContain('Recebemos um pedido para redefinir a senha');
    expect(mail.links).toHaveLength(1);
    const link = new URL(mail.links[0]!);
    expect(link.origin + link.pathname).toBe(`${backend.url}/auth/v1/verify`);
    expect(link.searchParams.get('type')).toBe('recovery');
    expect(link.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(link.searchParams.get('redirect_to')).toBe('http://localhost:5173/escola-demo');

    // The developer's page lists it, with the link clickable and the address escaped.
    const page = await fetch(`${backend.url}/inbox`);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('Caixa de entrada local');
    expect(html).toContain(known);
    expect(html).toContain(`href="${mail.links[0]!.replace(/&/g, '&amp;')}"`);
  });

  it('lists the newest e-mail first', async () => {
    const first = await newStudent();
    const second = await newStudent();
    await recover(first);
    await settled(backend.server.ctx);
    await recover(second);
    await settled(backend.server.ctx);
    const all = (await (await fetch(`${backend.url}/inbox/api/messages`)).json()) as InboxMessage[];
    const order = all.map((m) => m.to).filter((to) => to === first || to === second);
    expect(order).toEqual([second, first]);
  });

  it('escapes the address (quotes and ampersands are legal in it) on the page and in the e-mail', async () => {
    const email = `o'brien&co.${Date.now()}@example.com`;
    const { error } = await backend.service().auth.admin.createUser({ email, password: 'antiga123', email_confirm: true });
    expect(error).toBeNull();
    expect((await recover(email)).status).toBe(200);
    const [mail] = await inbox(email);
    const escaped = email.replace('&', '&amp;').replace("'", '&#39;');
    expect(mail!.html).toContain(escaped);
    expect(mail!.html).not.toContain(email);
    expect(mail!.text).toContain(email);
    const html = await (await fetch(`${backend.url}/inbox?to=${encodeURIComponent(email)}`)).text();
    expect(html).toContain(`<strong>${escaped}</strong>`);
    expect(html).not.toContain(email);
  });

  it('is for the developer on this machine only: no CORS, no other Host', async () => {
    await recover(await newStudent());
    const res = await fetch(`${backend.url}/inbox/api/messages`, { headers: { Origin: 'https://evil.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();

    // A DNS-rebinding page reaches the port under its own host name: refused.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${backend.url}/inbox/api/messages`,
        { headers: { Host: `evil.example:${backend.server.port}` } },
        (r) => {
          r.resume();
          resolve(r.statusCode!);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});

describe('recovery link', () => {
  it('opens a recovery session once, and the new password replaces the old one', async () => {
    const email = await newStudent('antiga123');
    expect((await recover(email)).status).toBe(200);
    const [mail] = await inbox(email);
    const { location, fragment } = await openLink(mail!.links[0]!);
    expect(location.origin + location.pathname).toBe('http://localhost:5173/escola-demo');
    expect(fragment.get('type')).toBe('recovery');
    const accessToken = fragment.get('access_token')!;
    expect(jwtPayload(accessToken)).toMatchObject({ email, amr: [{ method: 'otp', timestamp: expect.any(Number) }] });

    // The same link a second time: refused, with GoTrue's error in the fragment.
    const again = await openLink(mail!.links[0]!);
    expect(again.fragment.get('access_token')).toBeNull();
    expect(again.fragment.get('error')).toBe('access_denied');
    expect(again.fragment.get('error_code')).toBe('otp_expired');

    const client = backend.anon();
    const { error: sessionError } = await client.auth.setSession({
      access_token: accessToken,
      refresh_token: fragment.get('refresh_token')!,
    });
    expect(sessionError).toBeNull();
    expect((await client.auth.updateUser({ password: 'nova-senha-1' })).error).toBeNull();

    const old = await backend.anon().auth.signInWithPassword({ email, password: 'antiga123' });
    expect(old.error?.code).toBe('invalid_credentials');
    const fresh = await backend.anon().auth.signInWithPassword({ email, password: 'nova-senha-1' });
    expect(fresh.error).toBeNull();
    expect(fresh.data.user?.email).toBe(email);
  });
});

describe('per-address e-mail limit (config.toml: max_frequency, email_sent)', () => {
  it.each([
    ['a known address', true],
    ['an unknown address', false],
  ])('answers 429 over_email_send_rate_limit to a second request inside the window for %s', async (_, known) => {
    const email = known ? await newStudent() : uniqueEmail('fantasma');
    expect((await recover(email)).status).toBe(200);

    // The initial GoTrue shape, and the 2024-01-01 one auth-js asks for.
    const second = await recover(email.toUpperCase());
    expect(second.status).toBe(429);
    expect(second.body).toEqual({
      code: 429,
      error_code: 'over_email_send_rate_limit',
      msg: expect.stringMatching(/^For security purposes, you can only request this after \d+ seconds\.$/),
    });
    const third = await recover(email, undefined, '2024-01-01');
    expect(third.status).toBe(429);
    expect(third.body).toEqual({
      code: 'over_email_send_rate_limit',
      message: expect.stringContaining('For security purposes'),
    });

    // Through supabase-js, as the SPA sees it.
    const { error } = await backend.anon().auth.resetPasswordForEmail(email);
    expect(error?.status).toBe(429);
    expect(error?.code).toBe('over_email_send_rate_limit');

    expect(await inbox(email)).toHaveLength(known ? 1 : 0);
  });

  it('limits each address on its own', async () => {
    const limited = await newStudent();
    expect((await recover(limited)).status).toBe(200);
    expect((await recover(limited)).status).toBe(429);
    const other = await newStudent();
    expect((await recover(other)).status).toBe(200);
    expect(await inbox(other)).toHaveLength(1);
  });

  it('validates the address before counting it', async () => {
    const bad = await recover('nao-e-email');
    expect(bad.status).toBe(400);
    expect(bad.body.error_code).toBe('validation_failed');
  });
});

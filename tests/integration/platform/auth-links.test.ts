// Issue 19 item 8: the links in auth e-mails (and the issuer of tokens) come from configuration only
// (site_url, additional_redirect_urls, the API's external URL), never from the request's Host,
// X-Forwarded-Host or Referer: an attacker who asks for a victim's recovery link with
// `Host: atacante.example` gets it mailed to the victim pointing at our API, as GoTrue does.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { globToRegExp, redirectTarget } from '../../../local-supabase/auth/links.ts';
import type { ServerContext } from '../../../local-supabase/http.ts';
import { inbox, jwtPayload, uniqueEmail } from '../auth-helpers.ts';
import { ANON_KEY, SERVICE_ROLE_KEY, useBackend } from '../harness.ts';

const backend = useBackend();

const HOSTILE = { Host: 'atacante.example', 'X-Forwarded-Host': 'atacante.example', 'X-Forwarded-Proto': 'https', Referer: 'https://atacante.example/' };

/** A POST with headers fetch() will not send (Host), as a raw client would. */
function rawPost(path: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request(
      `${backend.url}${path}`,
      { method: 'POST', headers: { apikey: ANON_KEY, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(payload)), ...headers } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const confirmedAccount = async () => (await backend.createAccount({ prefix: 'vitima-host', password: 'segredo1' })).email;

/** Every URL in the e-mail: the /verify link must be on our API, its redirect_to on the configured site. */
function expectConfiguredHostsOnly(links: string[]) {
  expect(links.length).toBeGreaterThan(0);
  for (const raw of links) {
    const link = new URL(raw);
    expect(link.origin, raw).toBe(backend.url);
    const redirect = link.searchParams.get('redirect_to');
    if (redirect) expect(new URL(redirect).origin).toBe('http://localhost:5173');
    expect(raw).not.toContain('atacante');
  }
}

describe('links never follow request headers', () => {
  it('POST /recover with Host: atacante.example mails the victim a link to the configured API and site only', async () => {
    const victim = await confirmedAccount();
    const res = await rawPost(`/auth/v1/recover?redirect_to=${encodeURIComponent('https://atacante.example/roubar')}`, { email: victim }, HOSTILE);
    expect(res.status).toBe(200);
    const mails = await inbox(backend, victim);
    expect(mails).toHaveLength(1);
    expectConfiguredHostsOnly(mails[0]!.links);
    expect(mails[0]!.html).not.toContain('atacante');
  });

  it('the sign-up confirmation and the repeated-sign-up notice too', async () => {
    const fresh = uniqueEmail('novo-host');
    expect((await rawPost('/auth/v1/signup', { email: fresh, password: 'segredo1' }, HOSTILE)).status).toBe(200);
    expectConfiguredHostsOnly((await inbox(backend, fresh))[0]!.links);

    const taken = await confirmedAccount();
    expect((await rawPost(`/auth/v1/signup?redirect_to=${encodeURIComponent('https://atacante.example/')}`, { email: taken, password: 'segredo1' }, HOSTILE)).status).toBe(200);
    const [notice] = await inbox(backend, taken);
    expect(notice!.html).not.toContain('atacante');
    for (const link of notice!.links) expect(new URL(link).origin).toBe('http://localhost:5173');
  });

  it('the magic link (/otp), the invite and generate_link too', async () => {
    const evil = `?redirect_to=${encodeURIComponent('https://atacante.example/')}`;
    const known = await confirmedAccount();
    const fresh = uniqueEmail('otp-host');
    for (const email of [known, fresh]) {
      expect((await rawPost(`/auth/v1/otp${evil}`, { email, create_user: true }, HOSTILE)).status).toBe(200);
      expectConfiguredHostsOnly((await inbox(backend, email))[0]!.links);
    }
    const asAdmin = { ...HOSTILE, Authorization: `Bearer ${SERVICE_ROLE_KEY}` };
    const invited = uniqueEmail('convite-host');
    expect((await rawPost(`/auth/v1/invite${evil}`, { email: invited }, asAdmin)).status).toBe(200);
    expectConfiguredHostsOnly((await inbox(backend, invited))[0]!.links);
    const generated = await rawPost(`/auth/v1/admin/generate_link${evil}`, { type: 'recovery', email: known, redirect_to: 'https://atacante.example/' }, asAdmin);
    expect(generated.status).toBe(200);
    const props = JSON.parse(generated.body) as { action_link: string; redirect_to: string };
    expectConfiguredHostsOnly([props.action_link]);
    expect(props.redirect_to).toBe('http://localhost:5173');
  });

  it('the issuer of a token is the configured API URL, whatever Host said', async () => {
    const email = await confirmedAccount();
    const res = await rawPost('/auth/v1/token?grant_type=password', { email, password: 'segredo1' }, HOSTILE);
    expect(res.status).toBe(200);
    const token = (JSON.parse(res.body) as { access_token: string }).access_token;
    expect(jwtPayload(token).iss).toBe(`${backend.url}/auth/v1`);
  });

  it('the /verify redirect falls back to site_url for a redirect_to the configuration does not allow', async () => {
    const res = await fetch(`${backend.url}/auth/v1/verify?token=x&type=recovery&redirect_to=${encodeURIComponent('https://atacante.example/')}`, {
      redirect: 'manual',
      headers: { Referer: 'https://atacante.example/' },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^http:\/\/localhost:5173\/#error=access_denied/);
  });
});

describe('redirect_to as GoTrue allows it', () => {
  const ctx = {
    config: { siteUrl: 'http://localhost:5173', additionalRedirectUrls: ['http://127.0.0.1:5173', 'http://127.0.0.1:5173/**', 'https://*.escola.example/**'] },
  } as unknown as ServerContext;

  it.each([
    ['http://localhost:5173/escola-demo', true], // site_url's host name, any path
    ['http://localhost:4411/escola-demo', true], // ...and any port, as GoTrue compares host names
    ['http://127.0.0.1:5173', true],
    ['http://127.0.0.1:5173/escola-demo', true],
    ['https://demo.escola.example/auth', true],
    ['https://atacante.example/', false],
    ['http://localhost.atacante.example/', false],
    ['http://localhost:5173@atacante.example/', false],
    ['https://a.b.escola.example/', false], // * stays within one label
    ['https://escola.example.atacante.example/', false],
    ['javascript:alert(1)//localhost:5173', false],
    ['not a url', false],
  ])('%s → %s', (url, kept) => {
    expect(redirectTarget(ctx, url)).toBe(kept ? url : 'http://localhost:5173');
  });

  it('compiles globs with GoTrue separators', () => {
    expect(globToRegExp('http://*.example/**').test('http://a.example/x/y')).toBe(true);
    expect(globToRegExp('http://*.example/**').test('http://a.b.example/x')).toBe(false);
    expect(globToRegExp('http://x.example/?').test('http://x.example/a')).toBe(true);
    expect(globToRegExp('http://x.example/(a)').test('http://x.example/(a)')).toBe(true);
  });
});

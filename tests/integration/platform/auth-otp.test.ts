// POST /otp and /verify for e-mailed codes, through supabase-js (signInWithOtp, verifyOtp) as hosted
// GoTrue answers them: a confirmed account gets the magic-link e-mail (a six-digit code and a link, each
// good once, within otp_expiry), an unknown address becomes an unconfirmed account confirmed by its
// e-mail, and an attacker with the anon key learns nothing from the answer, its timing or its limit, and
// cannot use one account's code for another.
import { describe, expect, it } from 'vitest';
import { settled } from '../../../local-supabase/auth/background.ts';
import { authFetch, inbox, jwtPayload, openLink, uniqueEmail, type InboxMessage } from '../auth-helpers.ts';
import { useBackend } from '../harness.ts';

const backend = useBackend();

const SCHOOL_LOGIN = 'http://localhost:5173/escola-demo';
const MAGIC_SUBJECT = 'Seu link de acesso';

const confirmedAccount = (prefix = 'otp') => backend.createAccount({ prefix, password: 'segredo1' });

async function requestCode(email: string, options: { shouldCreateUser?: boolean; data?: object } = {}) {
  const { data, error } = await backend.anon().auth.signInWithOtp({ email, options: { emailRedirectTo: SCHOOL_LOGIN, ...options } });
  expect(error).toBeNull();
  expect(data).toEqual({ user: null, session: null });
}

/** The one magic-link e-mail of `email`, its code and its link. */
async function magicMail(email: string): Promise<{ mail: InboxMessage; code: string; link: URL }> {
  const mails = await inbox(backend, email);
  expect(mails.map((m) => m.subject)).toEqual([MAGIC_SUBJECT]);
  const mail = mails[0]!;
  const code = /código: (\d{6})\b/.exec(mail.text)?.[1];
  expect(code, mail.text).toMatch(/^\d{6}$/);
  expect(mail.links).toHaveLength(1);
  return { mail, code: code!, link: new URL(mail.links[0]!) };
}

const userRow = async (email: string) =>
  (
    await backend.server.ctx.engine.query<{ id: string; email_confirmed_at: string | null; encrypted_password: string; raw_user_meta_data: unknown }>(
      `select id::text as id, email_confirmed_at::text as email_confirmed_at, encrypted_password, raw_user_meta_data from auth.users where lower(email) = lower($1)`,
      [email],
    )
  ).rows;

describe('signInWithOtp for a confirmed account', () => {
  it('mails a code and a magic link; the code signs in once, with GoTrue\'s otp_expired after', async () => {
    const { email, id } = await confirmedAccount();
    await requestCode(email, { shouldCreateUser: false });
    const { code, link } = await magicMail(email);
    expect(link.origin + link.pathname).toBe(`${backend.url}/auth/v1/verify`);
    expect(link.searchParams.get('type')).toBe('magiclink');
    expect(link.searchParams.get('redirect_to')).toBe(SCHOOL_LOGIN);
    expect(link.searchParams.get('token')).toMatch(/^[0-9a-f]{56}$/);

    const { data, error } = await backend.anon().auth.verifyOtp({ email, token: code, type: 'email' });
    expect(error).toBeNull();
    expect(data.user!.id).toBe(id);
    expect(jwtPayload(data.session!.access_token)).toMatchObject({ sub: id, email, aal: 'aal1', amr: [{ method: 'otp' }] });

    const again = await backend.anon().auth.verifyOtp({ email, token: code, type: 'email' });
    expect(again.data.session).toBeNull();
    expect(again.error).toMatchObject({ status: 403, code: 'otp_expired', message: 'Token has expired or is invalid' });
    // The link carried the same token: it is spent too.
    expect((await openLink(link.toString())).fragment.get('error_code')).toBe('otp_expired');
  });

  it('the link signs in (type magiclink in the fragment), once; so does its token hash with type magiclink', async () => {
    const a = await confirmedAccount();
    await requestCode(a.email);
    const { link } = await magicMail(a.email);
    const { location, fragment } = await openLink(link.toString());
    expect(location.origin + location.pathname).toBe(SCHOOL_LOGIN);
    expect(fragment.get('type')).toBe('magiclink');
    expect(jwtPayload(fragment.get('access_token')!).sub).toBe(a.id);
    expect((await openLink(link.toString())).fragment.get('error_code')).toBe('otp_expired');

    const b = await confirmedAccount();
    await requestCode(b.email);
    const hash = (await magicMail(b.email)).link.searchParams.get('token')!;
    const ok = await backend.anon().auth.verifyOtp({ token_hash: hash, type: 'magiclink' });
    expect(ok.error).toBeNull();
    expect(ok.data.user!.id).toBe(b.id);
    const spent = await backend.anon().auth.verifyOtp({ token_hash: hash, type: 'magiclink' });
    expect(spent.error).toMatchObject({ status: 403, code: 'otp_expired', message: 'Email link is invalid or has expired' });
  });

  it("one account's code does not open another's, and a wrong guess does not spend the right code", async () => {
    const a = await confirmedAccount('otp-a');
    const b = await confirmedAccount('otp-b');
    await requestCode(a.email);
    await requestCode(b.email);
    const codeA = (await magicMail(a.email)).code;
    const codeB = (await magicMail(b.email)).code;
    const crossed = await backend.anon().auth.verifyOtp({ email: b.email, token: codeA, type: 'email' });
    expect(crossed.error).toMatchObject({ status: 403, code: 'otp_expired' });
    const wrong = String((Number(codeB) + 1) % 1_000_000).padStart(6, '0');
    expect((await backend.anon().auth.verifyOtp({ email: b.email, token: wrong, type: 'email' })).error?.code).toBe('otp_expired');
    // Each code still opens its own account, and only that one.
    const okB = await backend.anon().auth.verifyOtp({ email: b.email, token: codeB, type: 'magiclink' });
    expect(okB.data.user!.id).toBe(b.id);
    const okA = await backend.anon().auth.verifyOtp({ email: a.email.toUpperCase(), token: codeA, type: 'email' });
    expect(okA.data.user!.id).toBe(a.id);
  });

  it('a code past otp_expiry (one hour) is refused', async () => {
    const { email } = await confirmedAccount();
    await requestCode(email);
    const { code } = await magicMail(email);
    await backend.server.ctx.engine.query(`update auth.users set recovery_sent_at = now() - interval '61 minutes' where lower(email) = $1`, [email]);
    const late = await backend.anon().auth.verifyOtp({ email, token: code, type: 'email' });
    expect(late.error).toMatchObject({ status: 403, code: 'otp_expired', message: 'Token has expired or is invalid' });
  });
});

describe('signInWithOtp for an address without an account', () => {
  it('answers exactly as for a known address; the new unconfirmed account is confirmed by its e-mailed link', async () => {
    const known = (await confirmedAccount()).email;
    const fresh = uniqueEmail('otp-novo');
    const body = (email: string) => ({ email, create_user: true, data: { name: 'Nina Nova' } });
    const a = await authFetch(backend.url, `/otp?redirect_to=${encodeURIComponent(SCHOOL_LOGIN)}`, { method: 'POST', body: body(known) });
    const b = await authFetch(backend.url, `/otp?redirect_to=${encodeURIComponent(SCHOOL_LOGIN)}`, { method: 'POST', body: body(fresh) });
    expect([b.status, b.body]).toEqual([a.status, a.body]);
    expect([a.status, a.body]).toEqual([200, {}]);

    // Once the work after the answer is done: the known account is left as it was (no metadata from a
    // stranger); the new one has no password.
    await settled(backend.server.ctx);
    expect((await userRow(known))[0]!.raw_user_meta_data).toEqual({});
    const [row] = await userRow(fresh);
    expect(row).toMatchObject({ email_confirmed_at: null, encrypted_password: '', raw_user_meta_data: { name: 'Nina Nova' } });
    const mails = await inbox(backend, fresh);
    expect(mails.map((m) => m.subject)).toEqual(['Confirme seu cadastro']);
    const link = new URL(mails[0]!.links[0]!);
    expect(link.searchParams.get('type')).toBe('signup');
    const { fragment } = await openLink(link.toString());
    expect(fragment.get('type')).toBe('signup');
    expect(jwtPayload(fragment.get('access_token')!).sub).toBe(row!.id);
    expect((await userRow(fresh))[0]!.email_confirmed_at).not.toBeNull();
  });

  it('type email verifies the sign-up e-mail\'s token hash too', async () => {
    const email = uniqueEmail('otp-hash');
    await requestCode(email);
    const hash = new URL((await inbox(backend, email))[0]!.links[0]!).searchParams.get('token')!;
    const { data, error } = await backend.anon().auth.verifyOtp({ token_hash: hash, type: 'email' });
    expect(error).toBeNull();
    expect(data.user!.email_confirmed_at).toBeTruthy();
  });

  it('shouldCreateUser: false refuses an unknown address as GoTrue does (422 otp_disabled), creating and mailing nothing', async () => {
    const email = uniqueEmail('otp-ninguem');
    const { error } = await backend.anon().auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    expect(error).toMatchObject({ status: 422, code: 'otp_disabled', message: 'Signups not allowed for otp' });
    expect(await userRow(email)).toEqual([]);
    expect(await inbox(backend, email)).toEqual([]);
  });
});

describe('what /otp refuses', () => {
  it('answers 429 to a second request within max_frequency, for known and unknown addresses alike, shared with /recover', async () => {
    const known = (await confirmedAccount()).email;
    for (const email of [known, uniqueEmail('otp-limite')]) {
      await requestCode(email);
      const second = await backend.anon().auth.signInWithOtp({ email });
      expect(second.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
      expect((await authFetch(backend.url, '/recover', { method: 'POST', body: { email } })).status).toBe(429);
      expect(await inbox(backend, email)).toHaveLength(1);
    }
  });

  it('refuses what GoTrue refuses', async () => {
    const post = (body: unknown) => authFetch(backend.url, '/otp', { method: 'POST', body });
    expect((await post({})).body).toMatchObject({ code: 'validation_failed', message: 'One of email or phone must be set' });
    expect((await post({ phone: '+5511999999999' })).body).toMatchObject({ code: 'phone_provider_disabled' });
    expect((await post({ email: 'a@b.example', phone: '+5511999999999' })).status).toBe(400);
    const bad = await post({ email: "x' or 1=1 --" });
    expect([bad.status, bad.body.code]).toEqual([400, 'validation_failed']);
    expect((await post({ email: uniqueEmail(), create_user: 'yes' })).body.code).toBe('bad_json');

    const verify = (body: unknown) => authFetch(backend.url, '/verify', { method: 'POST', body });
    expect((await verify({ token: '123456', email: 'a@b.example' })).body.message).toBe('Verify requires a verification type');
    expect((await verify({ type: 'email', email: 'a@b.example' })).body.message).toBe('Verify requires either a token or a token hash');
    expect((await verify({ type: 'email', token: '1', token_hash: 'x' })).status).toBe(400);
    expect((await verify({ type: 'email', token_hash: 'x', email: 'a@b.example' })).body.message).toBe('Only the token_hash and type should be provided');
    expect((await verify({ type: 'email', token: '123456', email: 'nope' })).status).toBe(422);
    expect((await verify({ type: 'bogus', token_hash: 'x' })).body.message).toBe('Unsupported verification type');
    // No phone accounts here: a well-formed number's code never matches, a malformed one is refused first.
    expect((await verify({ type: 'sms', phone: '+55 11 99999 9999', token: '123456' })).body).toMatchObject({ code: 'otp_expired' });
    expect((await verify({ type: 'sms', phone: '5511-invalid', token: '123456' })).body.message).toBe('Invalid phone number format (E.164 required)');
  });
});

describe('/otp answers before it looks the address up', () => {
  it('answers while the database is held, for a known and an unknown address, and mails once it is free', { timeout: 60_000 }, async () => {
    const known = (await confirmedAccount('otp-segura')).email;
    const unknown = uniqueEmail('otp-segura-nova');
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let held!: () => void;
    const holding = new Promise<void>((r) => (held = r));
    const blocker = backend.server.ctx.engine.transaction(async (tx) => {
      await tx.query(`select 1 from auth.users where lower(email) = $1 for update`, [known]);
      held();
      await released;
    });
    await holding;
    const sleep = (ms: number) => new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), ms));
    try {
      for (const email of [known, unknown]) {
        const answer = await Promise.race([authFetch(backend.url, '/otp', { method: 'POST', body: { email, create_user: true } }), sleep(5_000)]);
        expect(answer, email).toMatchObject({ status: 200, body: {} });
      }
    } finally {
      release();
      await blocker;
    }
    expect((await inbox(backend, known)).map((m) => m.subject)).toEqual([MAGIC_SUBJECT]);
    expect((await inbox(backend, unknown)).map((m) => m.subject)).toEqual(['Confirme seu cadastro']);
  });
});

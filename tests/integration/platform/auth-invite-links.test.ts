// POST /invite and POST /admin/generate_link through supabase-js's admin API, as hosted GoTrue answers
// them: the service role invites (an account without a password, confirmed by its e-mailed link or
// code) and generates the links and codes an application mails itself (nothing is mailed); the anon
// key and a user's token get GoTrue's 403 not_admin and change nothing.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { authFetch, inbox, jwtPayload, openLink, signUpConfirmed, uniqueEmail } from '../auth-helpers.ts';
import { ANON_KEY, useBackend } from '../harness.ts';

const backend = useBackend();

const SCHOOL_LOGIN = 'http://localhost:5173/escola-demo';
const INVITE_SUBJECT = 'Convite para criar sua conta';
const admin = () => backend.service().auth.admin;

const confirmedAccount = (prefix = 'conta') => backend.createAccount({ prefix, password: 'segredo1' });

const userRows = async (email: string) =>
  (
    await backend.server.ctx.engine.query<{ id: string; email_confirmed_at: string | null; invited_at: string | null }>(
      `select id::text as id, email_confirmed_at::text as email_confirmed_at, invited_at::text as invited_at from auth.users where lower(email) = lower($1)`,
      [email],
    )
  ).rows;

/** Sets a password with the session's token (PUT /user), as the app's "choose a password" step does. */
async function choosePassword(accessToken: string, password: string) {
  const res = await authFetch(backend.url, '/user', { method: 'PUT', token: accessToken, body: { password } });
  expect(res.status).toBe(200);
}

describe('POST /invite (admin.inviteUserByEmail)', () => {
  it('creates an unconfirmed account without a password and mails the invite; its link confirms and signs in', async () => {
    const email = uniqueEmail('convidada');
    const { data, error } = await admin().inviteUserByEmail(email, { data: { name: 'Iris Convidada' }, redirectTo: SCHOOL_LOGIN });
    expect(error).toBeNull();
    const user = data.user!;
    expect(user).toMatchObject({ email, user_metadata: { name: 'Iris Convidada' }, app_metadata: { provider: 'email', providers: ['email'] } });
    expect(user.invited_at).toBeTruthy();
    expect(user.confirmation_sent_at).toBeTruthy();
    expect(user.email_confirmed_at).toBeUndefined();

    const mails = await inbox(backend, email);
    expect(mails.map((m) => m.subject)).toEqual([INVITE_SUBJECT]);
    expect(mails[0]!.text).toMatch(/código: \d{6}\b/);
    const link = new URL(mails[0]!.links[0]!);
    expect(link.origin + link.pathname).toBe(`${backend.url}/auth/v1/verify`);
    expect(link.searchParams.get('type')).toBe('invite');
    expect(link.searchParams.get('redirect_to')).toBe(SCHOOL_LOGIN);

    const { location, fragment } = await openLink(link.toString());
    expect(location.origin + location.pathname).toBe(SCHOOL_LOGIN);
    expect(fragment.get('type')).toBe('invite');
    expect(jwtPayload(fragment.get('access_token')!).sub).toBe(user.id);
    expect((await userRows(email))[0]!.email_confirmed_at).not.toBeNull();
    expect((await openLink(link.toString())).fragment.get('error_code')).toBe('otp_expired');

    await choosePassword(fragment.get('access_token')!, 'minhaSenha1');
    expect((await backend.anon().auth.signInWithPassword({ email, password: 'minhaSenha1' })).error).toBeNull();
  });

  it('invites an account not yet confirmed again (the earlier link stops working); the code verifies with type invite', async () => {
    const email = uniqueEmail('reconvite');
    expect((await admin().inviteUserByEmail(email)).error).toBeNull();
    const first = (await inbox(backend, email))[0]!.links[0]!;
    const again = await admin().inviteUserByEmail(email);
    expect(again.error).toBeNull();
    expect(await userRows(email)).toHaveLength(1);
    const mails = await inbox(backend, email);
    expect(mails).toHaveLength(2);
    expect((await openLink(first)).fragment.get('error_code')).toBe('otp_expired');
    const code = /código: (\d{6})\b/.exec(mails[0]!.text)![1]!;
    const { data, error } = await backend.anon().auth.verifyOtp({ email, token: code, type: 'invite' });
    expect(error).toBeNull();
    expect(data.user!.id).toBe(again.data.user!.id);
  });

  it('refuses a confirmed address with 422 email_exists and mails nothing', async () => {
    const { email } = await confirmedAccount();
    const { error } = await admin().inviteUserByEmail(email);
    expect(error).toMatchObject({ status: 422, code: 'email_exists', message: 'A user with this email address has already been registered' });
    expect(await inbox(backend, email)).toEqual([]);
  });
});

describe('POST /admin/generate_link (admin.generateLink)', () => {
  const sha224 = (s: string) => createHash('sha224').update(s).digest('hex');

  it('magiclink: GoTrue\'s properties (link, code, token hash, redirect, type), no e-mail, and the code signs in once', async () => {
    const { email, id } = await confirmedAccount('link');
    const { data, error } = await admin().generateLink({ type: 'magiclink', email, options: { redirectTo: SCHOOL_LOGIN } });
    expect(error).toBeNull();
    const p = data.properties!;
    expect(Object.keys(p).sort()).toEqual(['action_link', 'email_otp', 'hashed_token', 'redirect_to', 'verification_type']);
    expect(p.email_otp).toMatch(/^\d{6}$/);
    expect(p.hashed_token).toBe(sha224(email + p.email_otp));
    expect(p).toMatchObject({ redirect_to: SCHOOL_LOGIN, verification_type: 'magiclink' });
    const link = new URL(p.action_link);
    expect(link.origin + link.pathname).toBe(`${backend.url}/auth/v1/verify`);
    expect(Object.fromEntries(link.searchParams)).toEqual({ token: p.hashed_token, type: 'magiclink', redirect_to: SCHOOL_LOGIN });
    expect(data.user).toMatchObject({ id, email });
    expect(data.user!.recovery_sent_at).toBeTruthy();
    expect(await inbox(backend, email)).toEqual([]);

    // Another account's address with this code: refused.
    const other = await confirmedAccount('link-outra');
    expect((await backend.anon().auth.verifyOtp({ email: other.email, token: p.email_otp, type: 'magiclink' })).error?.code).toBe('otp_expired');
    const ok = await backend.anon().auth.verifyOtp({ email, token: p.email_otp, type: 'magiclink' });
    expect(ok.error).toBeNull();
    expect(ok.data.user!.id).toBe(id);
    expect((await openLink(p.action_link)).fragment.get('error_code')).toBe('otp_expired');
  });

  it('magiclink for an unknown address is a sign-up (verification_type signup) whose link confirms it', async () => {
    const email = uniqueEmail('link-novo');
    const { data, error } = await admin().generateLink({ type: 'magiclink', email, options: { data: { name: 'Nova' } } });
    expect(error).toBeNull();
    expect(data.properties!.verification_type).toBe('signup');
    expect(data.properties!.redirect_to).toBe('http://localhost:5173');
    expect(new URL(data.properties!.action_link).searchParams.get('type')).toBe('signup');
    expect(data.user).toMatchObject({ email, user_metadata: { name: 'Nova' } });
    expect(data.user!.email_confirmed_at).toBeUndefined();
    const { fragment } = await openLink(data.properties!.action_link);
    expect(jwtPayload(fragment.get('access_token')!).sub).toBe(data.user!.id);
  });

  it('signup: creates the account with its password; the token hash confirms it; GoTrue\'s refusals', async () => {
    const email = uniqueEmail('link-cadastro');
    const { data, error } = await admin().generateLink({ type: 'signup', email, password: 'segredo1', options: { data: { name: 'Sol' } } });
    expect(error).toBeNull();
    expect(data.properties!.verification_type).toBe('signup');
    expect((await backend.anon().auth.signInWithPassword({ email, password: 'segredo1' })).error?.code).toBe('email_not_confirmed');
    const ok = await backend.anon().auth.verifyOtp({ token_hash: data.properties!.hashed_token, type: 'signup' });
    expect(ok.error).toBeNull();
    expect((await backend.anon().auth.signInWithPassword({ email, password: 'segredo1' })).error).toBeNull();

    const noPassword = await admin().generateLink({ type: 'signup', email: uniqueEmail('sem-senha'), password: '' });
    expect(noPassword.error).toMatchObject({ status: 400, code: 'validation_failed', message: 'Signup requires a valid password' });
    expect((await admin().generateLink({ type: 'signup', email, password: 'segredo1' })).error).toMatchObject({ status: 422, code: 'email_exists' });
  });

  it('invite: an invited account, link type invite; a confirmed address is refused', async () => {
    const email = uniqueEmail('link-convite');
    const { data, error } = await admin().generateLink({ type: 'invite', email, options: { redirectTo: SCHOOL_LOGIN } });
    expect(error).toBeNull();
    expect(data.user!.invited_at).toBeTruthy();
    expect(new URL(data.properties!.action_link).searchParams.get('type')).toBe('invite');
    const ok = await backend.anon().auth.verifyOtp({ email, token: data.properties!.email_otp, type: 'invite' });
    expect(ok.error).toBeNull();
    expect(await inbox(backend, email)).toEqual([]);
    expect((await admin().generateLink({ type: 'invite', email })).error).toMatchObject({ status: 422, code: 'email_exists' });
  });

  it('recovery: 404 user_not_found for an unknown address; for a known one a recovery session', async () => {
    const unknown = await admin().generateLink({ type: 'recovery', email: uniqueEmail('link-ninguem') });
    expect(unknown.error).toMatchObject({ status: 404, code: 'user_not_found', message: 'User with this email not found' });
    const { email, id } = await confirmedAccount('link-recupera');
    const { data, error } = await admin().generateLink({ type: 'recovery', email });
    expect(error).toBeNull();
    const { fragment } = await openLink(data.properties!.action_link);
    expect(fragment.get('type')).toBe('recovery');
    expect(jwtPayload(fragment.get('access_token')!).sub).toBe(id);
  });

  it('email_change_current and email_change_new: both links together move the address; a taken address is refused', async () => {
    const { email, id } = await confirmedAccount('link-troca');
    const taken = (await confirmedAccount('link-ocupado')).email;
    expect((await admin().generateLink({ type: 'email_change_new', email, newEmail: taken })).error).toMatchObject({ status: 422, code: 'email_exists' });

    const newEmail = uniqueEmail('link-nova');
    const current = await admin().generateLink({ type: 'email_change_current', email, newEmail });
    const next = await admin().generateLink({ type: 'email_change_new', email, newEmail });
    expect(current.error).toBeNull();
    expect(next.error).toBeNull();
    expect(next.data.user).toMatchObject({ email, new_email: newEmail });
    expect(new URL(next.data.properties!.action_link).searchParams.get('type')).toBe('email_change');
    // GoTrue's link for the new address carries that address's token hash.
    const p = next.data.properties!;
    expect(new URL(p.action_link).searchParams.get('token')).toBe(sha224(newEmail + p.email_otp));

    const half = await authFetch(backend.url, '/verify', { method: 'POST', body: { type: 'email_change', token_hash: current.data.properties!.hashed_token } });
    expect(half.body).toEqual({ msg: 'Confirmation link accepted. Please proceed to confirm link sent to the other email', code: '200' });
    const done = await backend.anon().auth.verifyOtp({ email: newEmail, token: p.email_otp, type: 'email_change' });
    expect(done.error).toBeNull();
    expect(done.data.user).toMatchObject({ id, email: newEmail });
  });

  it('ignores a redirect the configuration does not allow, and refuses an unknown type', async () => {
    const { email } = await confirmedAccount('link-redir');
    const { data } = await admin().generateLink({ type: 'magiclink', email, options: { redirectTo: 'https://atacante.example/roubar' } });
    expect(data.properties!.redirect_to).toBe('http://localhost:5173');
    expect(data.properties!.action_link).not.toContain('atacante');
    const typed = await backend.service().auth.admin.generateLink({ type: 'bogus' as 'magiclink', email });
    expect(typed.error).toMatchObject({ status: 400, code: 'validation_failed', message: 'Invalid email action link type requested: bogus' });
  });
});

describe('the anon key and a user cannot invite or generate links', () => {
  it('answers 403 not_admin (401 without a bearer), creates nothing and mails nothing', async () => {
    const victim = await confirmedAccount('alvo');
    const stranger = uniqueEmail('forasteiro');
    const anonInvite = await backend.anon().auth.admin.inviteUserByEmail(stranger);
    expect(anonInvite.error).toMatchObject({ status: 403, code: 'not_admin', message: 'User not allowed' });
    const anonLink = await backend.anon().auth.admin.generateLink({ type: 'magiclink', email: victim.email });
    expect(anonLink.error).toMatchObject({ status: 403, code: 'not_admin' });
    expect(anonLink.data.properties).toBeNull();

    const me = await signUpConfirmed(backend, uniqueEmail('usuaria'), 'segredo1');
    for (const [path, body] of [
      ['/invite', { email: stranger }],
      ['/admin/generate_link', { type: 'recovery', email: victim.email }],
    ] as const) {
      for (const token of [ANON_KEY, me.accessToken]) {
        const res = await authFetch(backend.url, path, { method: 'POST', token, body });
        expect([res.status, res.body.code], path).toEqual([403, 'not_admin']);
      }
      expect((await authFetch(backend.url, path, { method: 'POST', body })).status).toBe(401);
    }
    expect(await userRows(stranger)).toEqual([]);
    expect(await inbox(backend, stranger)).toEqual([]);
    const row = await backend.server.ctx.engine.query<{ recovery_sent_at: string | null }>('select recovery_sent_at::text as recovery_sent_at from auth.users where id = $1', [victim.id]);
    expect(row.rows[0]!.recovery_sent_at).toBeNull();
  });
});

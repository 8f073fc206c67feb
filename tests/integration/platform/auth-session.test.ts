// Sign-up, sign-in, the user, refresh rotation and sign-out through the real supabase-js client.
import { describe, expect, it } from 'vitest';
import { authFetch, confirmationLink, inbox, jwtPayload, openLink, signUpConfirmed, uniqueEmail } from '../auth-helpers.ts';
import { useBackend } from '../harness.ts';

const backend = useBackend();

describe('sign-up', () => {
  it('creates an unconfirmed user with its metadata and answers it without a session, like GoTrue with confirmations on', async () => {
    const email = uniqueEmail('Signup').replace('signup', 'SignUp');
    const { data, error } = await backend.anon().auth.signUp({
      email,
      password: 'segredo1',
      options: { data: { name: 'Ana Souza', must_change_password: false } },
    });
    expect(error).toBeNull();
    const { session, user } = data;
    expect(session).toBeNull();
    expect(user!.email).toBe(email.toLowerCase());
    expect(user!.aud).toBe('authenticated');
    expect(user!.role).toBe('authenticated');
    expect(user!.email_confirmed_at).toBeUndefined();
    expect(user!.confirmed_at).toBeUndefined();
    expect(user!.last_sign_in_at).toBeUndefined();
    expect(user!.confirmation_sent_at).toBeTruthy();
    expect(user!.app_metadata).toEqual({ provider: 'email', providers: ['email'] });
    expect(user!.user_metadata).toEqual({ name: 'Ana Souza', must_change_password: false });
    // GoTrue's email identity: the provider's id is the user's, the sign-up's metadata fills identity_data.
    expect(user!.identities).toEqual([
      {
        identity_id: expect.any(String),
        id: user!.id,
        user_id: user!.id,
        identity_data: { sub: user!.id, email: email.toLowerCase(), email_verified: false, phone_verified: false, name: 'Ana Souza', must_change_password: false },
        provider: 'email',
        last_sign_in_at: expect.any(String),
        created_at: expect.any(String),
        updated_at: expect.any(String),
        email: email.toLowerCase(),
      },
    ]);
    expect(user!.is_anonymous).toBe(false);

    const row = await backend.server.ctx.engine.query<{ raw_user_meta_data: unknown; encrypted_password: string; email: string; email_confirmed_at: string | null }>(
      'select raw_user_meta_data, encrypted_password, email, email_confirmed_at from auth.users where id = $1',
      [user!.id],
    );
    expect(row.rows[0]!.raw_user_meta_data).toEqual({ name: 'Ana Souza', must_change_password: false });
    expect(row.rows[0]!.encrypted_password).toMatch(/^\$2[ab]\$10\$/);
    expect(row.rows[0]!.email).toBe(email.toLowerCase());
    expect(row.rows[0]!.email_confirmed_at).toBeNull();

    // The e-mailed link confirms the address and opens a session with Supabase's claims.
    const { location, fragment } = await openLink(await confirmationLink(backend, email));
    expect(location.origin).toBe('http://localhost:5173');
    expect(fragment.get('type')).toBe('signup');
    expect(fragment.get('token_type')).toBe('bearer');
    expect(Number(fragment.get('expires_in'))).toBe(3600);
    expect(Number(fragment.get('expires_at'))).toBeGreaterThan(Date.now() / 1000 + 3500);
    expect(fragment.get('refresh_token')).toMatch(/^\S{20,}$/);
    const claims = jwtPayload(fragment.get('access_token')!);
    expect(claims).toMatchObject({
      sub: user!.id,
      role: 'authenticated',
      aud: 'authenticated',
      email: email.toLowerCase(),
      phone: '',
      iss: `${backend.url}/auth/v1`,
      aal: 'aal1',
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { name: 'Ana Souza', must_change_password: false },
    });
    expect(claims.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(claims.amr).toEqual([{ method: 'otp', timestamp: expect.any(Number) }]);
    expect(Number(claims.exp) - Number(claims.iat)).toBe(3600);

    const confirmed = (await backend.anon().auth.getUser(fragment.get('access_token')!)).data.user!;
    expect(confirmed.email_confirmed_at).toBeTruthy();
    expect(confirmed.confirmed_at).toBeTruthy();
    expect(confirmed.last_sign_in_at).toBeTruthy();
    // And from now on the password signs in.
    expect((await backend.anon().auth.signInWithPassword({ email, password: 'segredo1' })).error).toBeNull();
  });

  it('goes through auth.users normally, so the profile trigger of the migrations fires', async () => {
    const school = await backend.server.ctx.engine.query<{ id: string }>('select id::text as id from public.schools order by slug limit 1');
    const { data, error } = await backend.anon().auth.signUp({
      email: uniqueEmail('profile'),
      password: 'segredo1',
      options: { data: { name: 'Perfil Criado', school_id: school.rows[0]!.id } },
    });
    expect(error).toBeNull();
    const profile = await backend.server.ctx.engine.query<{ name: string; school_id: string }>(
      'select name, school_id::text as school_id from public.profiles where id = $1',
      [data.user!.id],
    );
    expect(profile.rows).toEqual([{ name: 'Perfil Criado', school_id: school.rows[0]!.id }]);
  });

  it('never makes a second account for a taken address, whatever its case', async () => {
    const email = uniqueEmail('dup');
    expect((await backend.service().auth.admin.createUser({ email, password: 'segredo1', email_confirm: true })).error).toBeNull();
    const again = await backend.anon().auth.signUp({ email: email.toUpperCase(), password: 'outrasenha' });
    expect(again.error).toBeNull();
    expect(again.data.session).toBeNull();
    const count = await backend.server.ctx.engine.query<{ n: number }>('select count(*)::int as n from auth.users where lower(email) = $1', [email]);
    expect(count.rows[0]!.n).toBe(1);
    expect((await backend.anon().auth.signInWithPassword({ email, password: 'outrasenha' })).error?.code).toBe('invalid_credentials');
  });

  it('refuses a password shorter than 6 characters with weak_password', async () => {
    const { data, error } = await backend.anon().auth.signUp({ email: uniqueEmail('short'), password: '12345' });
    expect(data.user).toBeNull();
    expect(error?.status).toBe(422);
    expect(error?.code).toBe('weak_password');
    expect(error?.message).toBe('Password should be at least 6 characters.');
    expect((error as unknown as { reasons: string[] }).reasons).toEqual(['length']);
  });

  it('refuses a missing password and an invalid email', async () => {
    const noPassword = await authFetch(backend.url, '/signup', { method: 'POST', body: { email: uniqueEmail() } });
    expect(noPassword.status).toBe(422);
    expect(noPassword.body).toEqual({ code: 'validation_failed', message: 'Signup requires a valid password' });
    const badEmail = await backend.anon().auth.signUp({ email: 'not-an-email', password: 'segredo1' });
    expect(badEmail.error?.status).toBe(400);
    expect(badEmail.error?.code).toBe('validation_failed');
    expect(badEmail.error?.message).toBe('Unable to validate email address: invalid format');
  });
});

describe('sign-in with password', () => {
  it('signs in with the right password (any email case) and records last_sign_in_at', async () => {
    const email = uniqueEmail('signin');
    const signup = await signUpConfirmed(backend, email, 'segredo1');
    const firstSignIn = signup.user.last_sign_in_at!;
    await new Promise((r) => setTimeout(r, 20));
    const client = backend.anon();
    const { data, error } = await client.auth.signInWithPassword({ email: email.toUpperCase(), password: 'segredo1' });
    expect(error).toBeNull();
    expect(data.user!.id).toBe(signup.user.id);
    expect(Date.parse(data.user!.last_sign_in_at!)).toBeGreaterThan(Date.parse(firstSignIn));
    expect(jwtPayload(data.session!.access_token).session_id).not.toBe(jwtPayload(signup.accessToken).session_id);
  });

  it('refuses a wrong password and an unknown email with the same error', async () => {
    const email = uniqueEmail('wrong');
    await signUpConfirmed(backend, email, 'segredo1');
    for (const attempt of [
      { email, password: 'segredo2' },
      { email: uniqueEmail('nobody'), password: 'segredo1' },
      { email, password: '' },
    ]) {
      const { data, error } = await backend.anon().auth.signInWithPassword(attempt);
      expect(data.session).toBeNull();
      expect(error?.status).toBe(400);
      expect(error?.code).toBe('invalid_credentials');
      expect(error?.message).toBe('Invalid login credentials');
    }
  });

  it('verifies passwords hashed by pgcrypto (as seed.sql stores them)', async () => {
    const email = uniqueEmail('seeded');
    await backend.server.ctx.engine.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1,
               extensions.crypt('senha123', extensions.gen_salt('bf')), now(),
               '{"provider":"email","providers":["email"]}', '{"name":"Seed"}', now(), now())`,
      [email],
    );
    const ok = await backend.anon().auth.signInWithPassword({ email, password: 'senha123' });
    expect(ok.error).toBeNull();
    expect(ok.data.user!.user_metadata).toEqual({ name: 'Seed' });
    const bad = await backend.anon().auth.signInWithPassword({ email, password: 'senha124' });
    expect(bad.error?.code).toBe('invalid_credentials');
  });

  it('signs in the accounts of seed.sql with the seed password', async () => {
    const seeded = await backend.server.ctx.engine.query<{ email: string }>(
      `select email from auth.users where encrypted_password like '$2a$%' order by created_at limit 1`,
    );
    expect(seeded.rows.length).toBe(1);
    const client = await backend.signIn(seeded.rows[0]!.email);
    expect((await client.auth.getUser()).data.user!.email).toBe(seeded.rows[0]!.email);
  });

  it('refuses an unconfirmed email', async () => {
    const email = uniqueEmail('unconfirmed');
    const created = await backend.service().auth.admin.createUser({ email, password: 'segredo1', email_confirm: false });
    expect(created.error).toBeNull();
    const { error } = await backend.anon().auth.signInWithPassword({ email, password: 'segredo1' });
    expect(error?.status).toBe(400);
    expect(error?.code).toBe('email_not_confirmed');
    expect(error?.message).toBe('Email not confirmed');
  });
});

describe('the signed-in user', () => {
  it('getUser returns the user of the session', async () => {
    const email = uniqueEmail('getuser');
    await signUpConfirmed(backend, email, 'segredo1', { name: 'Bia' });
    const client = await backend.signIn(email, 'segredo1');
    const { data, error } = await client.auth.getUser();
    expect(error).toBeNull();
    expect(data.user!.email).toBe(email);
    expect(data.user!.user_metadata).toEqual({ name: 'Bia' });
  });

  it('updateUser merges data into the metadata and changes the password', async () => {
    const email = uniqueEmail('update');
    await signUpConfirmed(backend, email, 'segredo1', { name: 'Caio', must_change_password: true });
    const client = await backend.signIn(email, 'segredo1');
    const { data, error } = await client.auth.updateUser({ password: 'novasenha', data: { must_change_password: false } });
    expect(error).toBeNull();
    expect(data.user!.user_metadata).toEqual({ name: 'Caio', must_change_password: false });

    const old = await backend.anon().auth.signInWithPassword({ email, password: 'segredo1' });
    expect(old.error?.code).toBe('invalid_credentials');
    const fresh = await backend.anon().auth.signInWithPassword({ email, password: 'novasenha' });
    expect(fresh.error).toBeNull();
    expect(fresh.data.user!.user_metadata).toEqual({ name: 'Caio', must_change_password: false });

    // A null removes a key, as GoTrue's metadata merge does.
    const removed = await client.auth.updateUser({ data: { must_change_password: null } });
    expect(removed.data.user!.user_metadata).toEqual({ name: 'Caio' });
  });

  it('updateUser refuses a short password, the same password and app_metadata', async () => {
    const email = uniqueEmail('update-refused');
    await signUpConfirmed(backend, email, 'segredo1');
    const client = await backend.signIn(email, 'segredo1');
    const short = await client.auth.updateUser({ password: '123' });
    expect(short.error?.code).toBe('weak_password');
    const same = await client.auth.updateUser({ password: 'segredo1' });
    expect(same.error?.status).toBe(422);
    expect(same.error?.code).toBe('same_password');
    const { data: sessionData } = await client.auth.getSession();
    const appMeta = await authFetch(backend.url, '/user', {
      method: 'PUT',
      token: sessionData.session!.access_token,
      body: { app_metadata: { role: 'super_admin' } },
    });
    expect(appMeta.status).toBe(401);
    const { data } = await client.auth.getUser();
    expect(data.user!.app_metadata).toEqual({ provider: 'email', providers: ['email'] });
  });

  it('updateUser changes the email only once both addresses opened their link, and never to one that is taken', async () => {
    const email = uniqueEmail('change-email');
    const taken = uniqueEmail('taken');
    await signUpConfirmed(backend, taken, 'segredo1');
    await signUpConfirmed(backend, email, 'segredo1');
    const client = await backend.signIn(email, 'segredo1');
    const refused = await client.auth.updateUser({ email: taken.toUpperCase() });
    expect(refused.error?.status).toBe(422);
    expect(refused.error?.code).toBe('email_exists');
    const next = uniqueEmail('changed');
    const { data, error } = await client.auth.updateUser({ email: next }, { emailRedirectTo: 'http://localhost:5173/escola-demo' });
    expect(error).toBeNull();
    // Pending, as GoTrue answers it: the address stays until the links are opened.
    expect(data.user!.email).toBe(email);
    expect(data.user!.new_email).toBe(next);
    expect(data.user!.email_change_sent_at).toBeTruthy();
    expect((await backend.anon().auth.signInWithPassword({ email: next, password: 'segredo1' })).error?.code).toBe('invalid_credentials');

    const [toNew] = (await inbox(backend, next)).filter((m) => m.subject === 'Confirme a alteração de e-mail');
    const [toOld] = (await inbox(backend, email)).filter((m) => m.subject === 'Confirme a alteração de e-mail');
    expect(toNew!.text).toContain(`para ${next}`);
    const first = await openLink(toNew!.links[0]!);
    expect(first.fragment.get('message')).toBe('Confirmation link accepted. Please proceed to confirm link sent to the other email');
    expect(first.fragment.get('access_token')).toBeNull();
    expect((await client.auth.getUser()).data.user!.email).toBe(email);
    const second = await openLink(toOld!.links[0]!);
    expect(second.location.origin + second.location.pathname).toBe('http://localhost:5173/escola-demo');
    expect(second.fragment.get('type')).toBe('email_change');
    expect(jwtPayload(second.fragment.get('access_token')!).email).toBe(next);
    expect((await backend.anon().auth.signInWithPassword({ email: next, password: 'segredo1' })).error).toBeNull();
    expect((await openLink(toOld!.links[0]!)).fragment.get('error_code')).toBe('otp_expired');
  });

  it('a password change ends the other sessions but keeps the current one', async () => {
    const email = uniqueEmail('pw-sessions');
    await signUpConfirmed(backend, email, 'segredo1');
    const current = await backend.signIn(email, 'segredo1');
    const other = await backend.signIn(email, 'segredo1');
    const otherRefresh = (await other.auth.getSession()).data.session!.refresh_token;
    expect((await current.auth.updateUser({ password: 'segredo2' })).error).toBeNull();
    expect((await current.auth.getUser()).error).toBeNull();
    const refreshed = await backend.anon().auth.refreshSession({ refresh_token: otherRefresh });
    expect(refreshed.error?.code).toBe('refresh_token_not_found');
  });
});

describe('refresh token rotation', () => {
  it('issues a new pair and refuses the used refresh token, then revokes the session', async () => {
    const email = uniqueEmail('refresh');
    await signUpConfirmed(backend, email, 'segredo1');
    const client = await backend.signIn(email, 'segredo1');
    const first = (await client.auth.getSession()).data.session!;

    const { data, error } = await client.auth.refreshSession();
    expect(error).toBeNull();
    const second = data.session!;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(jwtPayload(second.access_token).session_id).toBe(jwtPayload(first.access_token).session_id);
    expect(data.user!.email).toBe(email);

    // The old token is refused: a reuse looks like theft, so the whole session's tokens are revoked.
    const reuse = await backend.anon().auth.refreshSession({ refresh_token: first.refresh_token });
    expect(reuse.data.session).toBeNull();
    expect(reuse.error?.status).toBe(400);
    expect(reuse.error?.code).toBe('refresh_token_already_used');
    expect(reuse.error?.message).toBe('Invalid Refresh Token: Already Used');
    const afterTheft = await backend.anon().auth.refreshSession({ refresh_token: second.refresh_token });
    expect(afterTheft.error?.code).toBe('refresh_token_already_used');
  });

  it('refuses an unknown or missing refresh token', async () => {
    const unknown = await backend.anon().auth.refreshSession({ refresh_token: 'no-such-token' });
    expect(unknown.error?.status).toBe(400);
    expect(unknown.error?.code).toBe('refresh_token_not_found');
    expect(unknown.error?.message).toBe('Invalid Refresh Token: Refresh Token Not Found');
    const missing = await authFetch(backend.url, '/token?grant_type=refresh_token', { method: 'POST', body: {} });
    expect(missing.status).toBe(400);
    const grant = await authFetch(backend.url, '/token?grant_type=magic', { method: 'POST', body: {} });
    expect(grant.status).toBe(400);
  });
});

describe('sign-out', () => {
  it('ends the session: its refresh token and access token stop working', async () => {
    const email = uniqueEmail('signout');
    await signUpConfirmed(backend, email, 'segredo1');
    const client = await backend.signIn(email, 'segredo1');
    const session = (await client.auth.getSession()).data.session!;
    const { error } = await client.auth.signOut();
    expect(error).toBeNull();
    expect((await client.auth.getSession()).data.session).toBeNull();

    const refreshed = await backend.anon().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refreshed.error?.code).toBe('refresh_token_not_found');
    const user = await authFetch(backend.url, '/user', { token: session.access_token });
    expect(user.status).toBe(403);
    expect(user.body.code).toBe('session_not_found');
    // auth-js turns session_not_found into "no session".
    const viaClient = await backend.anon().auth.getUser(session.access_token);
    expect(viaClient.error?.name).toBe('AuthSessionMissingError');
  });

  it('scope local ends one session, others the rest, global all of them', async () => {
    const email = uniqueEmail('scopes');
    await signUpConfirmed(backend, email, 'segredo1');
    const a = await backend.signIn(email, 'segredo1');
    const b = await backend.signIn(email, 'segredo1');
    const c = await backend.signIn(email, 'segredo1');
    const tokenOf = async (x: typeof a) => (await x.auth.getSession()).data.session!.access_token;
    const [ta, tb, tc] = [await tokenOf(a), await tokenOf(b), await tokenOf(c)];

    expect((await authFetch(backend.url, '/logout?scope=local', { method: 'POST', token: ta })).status).toBe(204);
    expect((await authFetch(backend.url, '/user', { token: ta })).status).toBe(403);
    expect((await authFetch(backend.url, '/user', { token: tb })).status).toBe(200);

    expect((await authFetch(backend.url, '/logout?scope=others', { method: 'POST', token: tb })).status).toBe(204);
    expect((await authFetch(backend.url, '/user', { token: tb })).status).toBe(200);
    expect((await authFetch(backend.url, '/user', { token: tc })).status).toBe(403);

    const d = await backend.signIn(email, 'segredo1');
    expect((await authFetch(backend.url, '/logout', { method: 'POST', token: tb })).status).toBe(204);
    expect((await authFetch(backend.url, '/user', { token: await tokenOf(d) })).status).toBe(403);

    const bad = await authFetch(backend.url, '/logout?scope=everything', { method: 'POST', token: await tokenOf(await backend.signIn(email, 'segredo1')) });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_failed');
  });
});

describe('password recovery', () => {
  it('mails a recovery link to the local inbox, and the link opens a recovery session', async () => {
    const email = uniqueEmail('recover');
    await signUpConfirmed(backend, email, 'segredo1');
    const { data, error } = await backend.anon().auth.resetPasswordForEmail(email, { redirectTo: 'http://localhost:5173/reset' });
    expect(error).toBeNull();
    expect(data).toEqual({});
    // Unknown emails get the same answer and no link.
    const ghost = uniqueEmail('ghost');
    expect((await backend.anon().auth.resetPasswordForEmail(ghost)).error).toBeNull();
    expect(await inbox(backend, ghost)).toEqual([]);
    const mails = (await inbox(backend, email)).filter((m) => m.subject === 'Redefinir senha');
    expect(mails).toHaveLength(1);
    const link = mails[0]!.links[0]!;
    expect(link).toContain(`${backend.url}/auth/v1/verify?token=`);

    const res = await fetch(link, { redirect: 'manual' });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe('http://localhost:5173/reset');
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('type')).toBe('recovery');
    const accessToken = fragment.get('access_token')!;
    expect(jwtPayload(accessToken).email).toBe(email);

    // The link works once.
    const again = await fetch(link, { redirect: 'manual' });
    expect(new URLSearchParams(new URL(again.headers.get('location')!).hash.slice(1)).get('error_code')).toBe('otp_expired');

    // With the recovery session the user sets a new password.
    const client = backend.anon();
    await client.auth.setSession({ access_token: accessToken, refresh_token: fragment.get('refresh_token')! });
    expect((await client.auth.updateUser({ password: 'recuperada' })).error).toBeNull();
    expect((await backend.anon().auth.signInWithPassword({ email, password: 'recuperada' })).error).toBeNull();
  });

  it('refuses an invalid email and never redirects to a foreign site', async () => {
    const bad = await backend.anon().auth.resetPasswordForEmail('nope');
    expect(bad.error?.code).toBe('validation_failed');
    const res = await fetch(`${backend.url}/auth/v1/verify?token=forged&type=recovery&redirect_to=https://evil.example/steal`, {
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^http:\/\/localhost:5173\/?#error=access_denied/);
  });
});

describe('settings and health', () => {
  it('answers /settings and /health', async () => {
    const settings = await authFetch(backend.url, '/settings');
    expect(settings.status).toBe(200);
    expect(settings.body).toMatchObject({ external: { email: true }, disable_signup: false, mailer_autoconfirm: false });
    const health = await authFetch(backend.url, '/health');
    expect(health.status).toBe(200);
    expect(health.body.name).toBe('GoTrue');
  });
});

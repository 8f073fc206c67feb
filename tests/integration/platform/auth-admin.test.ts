// GoTrue's admin API through supabase-js's auth.admin (service role), its refusals, bans and deletes.
import { describe, expect, it } from 'vitest';
import { authFetch, signUpConfirmed, uniqueEmail } from '../auth-helpers.ts';
import { ANON_KEY, SERVICE_ROLE_KEY, useBackend } from '../harness.ts';
import { accessToken, turnOnTwoFactor } from '../mfa-helpers.ts';

const backend = useBackend();

const admin = () => backend.service().auth.admin;

describe('admin users API', () => {
  it('creates a user with metadata, confirmed, who can then sign in', async () => {
    const email = uniqueEmail('Admin-Create');
    const { data, error } = await admin().createUser({
      email,
      password: 'inicial1',
      email_confirm: true,
      user_metadata: { name: 'Aluno Novo', must_change_password: true },
      app_metadata: { tenant: 'escola-a' },
    });
    expect(error).toBeNull();
    const user = data.user!;
    expect(user.email).toBe(email.toLowerCase());
    expect(user.email_confirmed_at).toBeTruthy();
    expect(user.user_metadata).toEqual({ name: 'Aluno Novo', must_change_password: true });
    expect(user.app_metadata).toEqual({ provider: 'email', providers: ['email'], tenant: 'escola-a' });
    expect(user.last_sign_in_at).toBeUndefined();

    const signIn = await backend.anon().auth.signInWithPassword({ email, password: 'inicial1' });
    expect(signIn.error).toBeNull();
    expect(signIn.data.user!.id).toBe(user.id);
  });

  it('refuses a duplicate email, a missing email and a short password', async () => {
    const email = uniqueEmail('admin-dup');
    expect((await admin().createUser({ email, password: 'inicial1', email_confirm: true })).error).toBeNull();
    const dup = await admin().createUser({ email: email.toUpperCase(), password: 'inicial1' });
    expect(dup.error?.status).toBe(422);
    expect(dup.error?.code).toBe('email_exists');
    const none = await admin().createUser({ password: 'inicial1' });
    expect(none.error?.status).toBe(400);
    expect(none.error?.code).toBe('validation_failed');
    const short = await admin().createUser({ email: uniqueEmail('admin-short'), password: '123' });
    expect(short.error?.code).toBe('weak_password');
  });

  it('lists users newest first with GoTrue pagination headers', async () => {
    const emails = [uniqueEmail('list-a'), uniqueEmail('list-b'), uniqueEmail('list-c')];
    for (const email of emails) await admin().createUser({ email, password: 'inicial1', email_confirm: true });
    const total = (await backend.server.ctx.engine.query<{ n: number }>('select count(*)::int as n from auth.users')).rows[0]!.n;

    const { data, error } = await admin().listUsers({ page: 1, perPage: 2 });
    expect(error).toBeNull();
    if (!('aud' in data)) throw new Error('listUsers returned no pagination');
    expect(data.users).toHaveLength(2);
    expect(data.users.map((u) => u.email)).toEqual([emails[2], emails[1]]);
    expect(data.total).toBe(total);
    expect(data.nextPage).toBe(2);
    expect(data.aud).toBe('authenticated');
    // auth-js reads only the first digit of a Link's page number, so its lastPage is checked where that
    // is one digit; the header itself is checked below for the two-per-page listing.
    const perPage = Math.ceil(total / 5);
    const wide = await admin().listUsers({ page: 1, perPage });
    if (!('aud' in wide.data)) throw new Error('listUsers returned no pagination');
    expect(wide.data.lastPage).toBe(Math.ceil(total / perPage));

    const raw = await authFetch(backend.url, '/admin/users?page=2&per_page=2', { token: SERVICE_ROLE_KEY });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('x-total-count')).toBe(String(total));
    expect(raw.headers.get('link')).toContain(`page=${Math.ceil(total / 2)}&per_page=2>; rel="last"`);
    expect((raw.body.users as { email: string }[])[0]!.email).toBe(emails[0]);

    const bad = await authFetch(backend.url, '/admin/users?page=0', { token: SERVICE_ROLE_KEY });
    expect(bad.status).toBe(400);
  });

  it('gets one user by id, 404 for an unknown or malformed id', async () => {
    const email = uniqueEmail('admin-get');
    const created = await admin().createUser({ email, password: 'inicial1', email_confirm: true });
    const { data, error } = await admin().getUserById(created.data.user!.id);
    expect(error).toBeNull();
    expect(data.user!.email).toBe(email);
    const missing = await admin().getUserById('00000000-0000-4000-8000-000000000000');
    expect(missing.error?.status).toBe(404);
    expect(missing.error?.code).toBe('user_not_found');
    const malformed = await authFetch(backend.url, "/admin/users/1'%20or%20'1'='1", { token: SERVICE_ROLE_KEY });
    expect(malformed.status).toBe(404);
  });

  it('updates password, email, metadata (merged) and confirmation', async () => {
    const email = uniqueEmail('admin-update');
    const created = await admin().createUser({
      email,
      password: 'inicial1',
      user_metadata: { name: 'Antes', school_id: 'x' },
      app_metadata: { plan: 'free' },
    });
    const id = created.data.user!.id;
    const session = await backend.anon().auth.signInWithPassword({ email, password: 'inicial1' });
    expect(session.error?.code).toBe('email_not_confirmed');

    const newEmail = uniqueEmail('admin-updated');
    const { data, error } = await admin().updateUserById(id, {
      email: newEmail,
      password: 'trocada1',
      email_confirm: true,
      user_metadata: { name: 'Depois' },
      app_metadata: { plan: 'pro' },
    });
    expect(error).toBeNull();
    expect(data.user!.email).toBe(newEmail);
    expect(data.user!.email_confirmed_at).toBeTruthy();
    expect(data.user!.user_metadata).toEqual({ name: 'Depois', school_id: 'x' });
    expect(data.user!.app_metadata).toEqual({ provider: 'email', providers: ['email'], plan: 'pro' });

    expect((await backend.anon().auth.signInWithPassword({ email: newEmail, password: 'trocada1' })).error).toBeNull();
    expect((await backend.anon().auth.signInWithPassword({ email: newEmail, password: 'inicial1' })).error?.code).toBe(
      'invalid_credentials',
    );
  });

  it('an admin password reset ends the user sessions', async () => {
    const email = uniqueEmail('admin-reset');
    const created = await admin().createUser({ email, password: 'inicial1', email_confirm: true });
    const client = await backend.signIn(email, 'inicial1');
    const refresh = (await client.auth.getSession()).data.session!.refresh_token;
    expect((await admin().updateUserById(created.data.user!.id, { password: 'resetada1' })).error).toBeNull();
    expect((await backend.anon().auth.refreshSession({ refresh_token: refresh })).error?.code).toBe('refresh_token_not_found');
  });

  it('deletes a user with its sessions and refresh tokens', async () => {
    const email = uniqueEmail('admin-delete');
    const created = await admin().createUser({ email, password: 'inicial1', email_confirm: true });
    const id = created.data.user!.id;
    const client = await backend.signIn(email, 'inicial1');
    const session = (await client.auth.getSession()).data.session!;

    const { error } = await admin().deleteUser(id);
    expect(error).toBeNull();
    const rows = await backend.server.ctx.engine.query<{ users: number; sessions: number; tokens: number }>(
      `select (select count(*)::int from auth.users where id = $1) as users,
              (select count(*)::int from auth.sessions where user_id = $1) as sessions,
              (select count(*)::int from auth.refresh_tokens where user_id = $1) as tokens`,
      [id],
    );
    expect(rows.rows[0]).toEqual({ users: 0, sessions: 0, tokens: 0 });
    expect((await backend.anon().auth.refreshSession({ refresh_token: session.refresh_token })).error?.code).toBe(
      'refresh_token_not_found',
    );
    const user = await authFetch(backend.url, '/user', { token: session.access_token });
    expect(user.status).toBe(403);
    expect(user.body.code).toBe('user_not_found');
    expect((await admin().deleteUser(id)).error?.status).toBe(404);
  });
});

describe('admin API refusals', () => {
  it('refuses the anon key, a user token and no token, like GoTrue', async () => {
    const anon = await backend.anon().auth.admin.listUsers();
    expect(anon.error?.status).toBe(403);
    expect(anon.error?.code).toBe('not_admin');
    expect(anon.error?.message).toBe('User not allowed');

    const email = uniqueEmail('not-admin');
    await signUpConfirmed(backend, email, 'segredo1');
    const userClient = await backend.signIn(email, 'segredo1');
    const token = (await userClient.auth.getSession()).data.session!.access_token;
    for (const [method, path, body] of [
      ['GET', '/admin/users', undefined],
      ['POST', '/admin/users', { email: uniqueEmail('sneaky'), password: 'segredo1', email_confirm: true }],
      ['GET', `/admin/users/${jwtSub(token)}`, undefined],
      ['PUT', `/admin/users/${jwtSub(token)}`, { app_metadata: { role: 'super_admin' } }],
      ['DELETE', `/admin/users/${jwtSub(token)}`, undefined],
    ] as const) {
      const res = await authFetch(backend.url, path, { method, token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe('not_admin');
    }
    const me = await userClient.auth.getUser();
    expect(me.data.user!.app_metadata).toEqual({ provider: 'email', providers: ['email'] });

    const noToken = await fetch(`${backend.url}/auth/v1/admin/users`, { headers: { apikey: ANON_KEY } });
    expect(noToken.status).toBe(401);
    const forged = await authFetch(backend.url, '/admin/users', { token: SERVICE_ROLE_KEY.slice(0, -4) + 'AAAA' });
    expect(forged.status).toBe(403);
    expect(forged.body.code).toBe('bad_jwt');
  });
});

function jwtSub(token: string): string {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;
}

describe('bans', () => {
  it('a banned user cannot sign in, refresh or use their token; lifting the ban restores access', async () => {
    const email = uniqueEmail('banned');
    const created = await admin().createUser({ email, password: 'segredo1', email_confirm: true });
    const id = created.data.user!.id;
    const client = await backend.signIn(email, 'segredo1');
    const session = (await client.auth.getSession()).data.session!;

    const banned = await admin().updateUserById(id, { ban_duration: '876000h' });
    expect(banned.error).toBeNull();
    expect(Date.parse(banned.data.user!.banned_until!)).toBeGreaterThan(Date.now() + 99 * 365 * 24 * 3600 * 1000);

    const signIn = await backend.anon().auth.signInWithPassword({ email, password: 'segredo1' });
    expect(signIn.error?.status).toBe(400);
    expect(signIn.error?.code).toBe('user_banned');
    expect(signIn.error?.message).toBe('User is banned');
    const wrongPassword = await backend.anon().auth.signInWithPassword({ email, password: 'errada12' });
    expect(wrongPassword.error?.code).toBe('invalid_credentials');

    const refresh = await backend.anon().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refresh.error?.status).toBe(400);
    expect(refresh.error?.code).toBe('user_banned');
    const user = await authFetch(backend.url, '/user', { token: session.access_token });
    expect(user.status).toBe(403);
    expect(user.body.code).toBe('user_banned');

    const lifted = await admin().updateUserById(id, { ban_duration: 'none' });
    expect(lifted.data.user!.banned_until).toBeUndefined();
    expect((await backend.anon().auth.signInWithPassword({ email, password: 'segredo1' })).error).toBeNull();
    // The refresh token was never revoked by the ban, so it works again.
    expect((await backend.anon().auth.refreshSession({ refresh_token: session.refresh_token })).error).toBeNull();
  });

  it('creates a user banned from the start and refuses a malformed ban_duration', async () => {
    const email = uniqueEmail('born-banned');
    const created = await admin().createUser({ email, password: 'segredo1', email_confirm: true, ban_duration: '1h30m' });
    expect(created.error).toBeNull();
    expect((await backend.anon().auth.signInWithPassword({ email, password: 'segredo1' })).error?.code).toBe('user_banned');
    const bad = await admin().updateUserById(created.data.user!.id, { ban_duration: "1h'; drop table auth.users; --" });
    expect(bad.error?.status).toBe(400);
    expect(bad.error?.code).toBe('validation_failed');
    expect((await backend.server.ctx.engine.query('select 1 from auth.users limit 1')).rows).toHaveLength(1);
  });
});

describe('database errors from triggers on auth.users', () => {
  it('answers 500 unexpected_failure "Database error saving new user" and leaves nothing behind', async () => {
    // A trigger that refuses some metadata, like a profile trigger refusing an unknown school.
    await backend.server.ctx.engine.exec(`
      create or replace function public.auth_test_refuse() returns trigger language plpgsql as $$
      begin
        if new.raw_user_meta_data ->> 'school_id' = 'no-such-school' then
          raise exception 'school does not exist';
        end if;
        return new;
      end $$;
      create trigger auth_test_refuse after insert on auth.users for each row execute function public.auth_test_refuse();
    `);
    try {
      const email = uniqueEmail('trigger');
      const raw = await authFetch(backend.url, '/signup', {
        method: 'POST',
        body: { email, password: 'segredo1', data: { school_id: 'no-such-school' } },
      });
      expect(raw.status).toBe(500);
      expect(raw.body).toEqual({ code: 'unexpected_failure', message: 'Database error saving new user' });
      const viaClient = await backend.anon().auth.signUp({ email, password: 'segredo1', options: { data: { school_id: 'no-such-school' } } });
      expect(viaClient.error?.status).toBe(500);
      const viaAdmin = await admin().createUser({ email, password: 'segredo1', user_metadata: { school_id: 'no-such-school' } });
      expect(viaAdmin.error?.status).toBe(500);
      const rows = await backend.server.ctx.engine.query('select 1 from auth.users where email = $1', [email]);
      expect(rows.rows).toHaveLength(0);
      // The same email signs up once the metadata is acceptable.
      expect((await backend.anon().auth.signUp({ email, password: 'segredo1' })).error).toBeNull();
      expect((await backend.server.ctx.engine.query('select 1 from auth.users where email = $1', [email])).rows).toHaveLength(1);
    } finally {
      await backend.server.ctx.engine.exec('drop trigger auth_test_refuse on auth.users; drop function public.auth_test_refuse();');
    }
  });
});

describe("admin factors API (a user's second factors, for the service role only)", () => {
  /** A confirmed account of its own with a verified TOTP factor, signed in at aal2. */
  async function withFactor(prefix: string) {
    const email = uniqueEmail(prefix);
    const { user } = await signUpConfirmed(backend, email, 'segredo1');
    const client = backend.anon();
    expect((await client.auth.signInWithPassword({ email, password: 'segredo1' })).error).toBeNull();
    const { factorId } = await turnOnTwoFactor(client);
    return { user, client, factorId };
  }
  const factorRows = async (userId: string) =>
    (await backend.server.ctx.engine.query('select id::text as id from auth.mfa_factors where user_id = $1', [userId])).rows;

  it('lists a user\'s factors and deletes one: the sessions verified with it fall back to aal1', async () => {
    const { user, client, factorId } = await withFactor('fatores');
    const listed = await admin().mfa.listFactors({ userId: user.id });
    expect(listed.error).toBeNull();
    expect(listed.data!.factors).toEqual([
      {
        id: factorId,
        factor_type: 'totp',
        status: 'verified',
        friendly_name: 'Celular',
        phone: '',
        created_at: expect.any(String),
        updated_at: expect.any(String),
        last_challenged_at: expect.any(String),
      },
    ]);
    const renamed = await authFetch(backend.url, `/admin/users/${user.id}/factors/${factorId}`, { method: 'PUT', token: SERVICE_ROLE_KEY, body: { friendly_name: 'Telefone' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: factorId, friendly_name: 'Telefone' });

    const deleted = await admin().mfa.deleteFactor({ userId: user.id, id: factorId });
    expect(deleted.error).toBeNull();
    expect((deleted.data as unknown as { data: { id: string } }).data.id).toBe(factorId);
    expect(await factorRows(user.id)).toEqual([]);
    expect((await admin().mfa.listFactors({ userId: user.id })).data!.factors).toEqual([]);
    // The session that had given its code is aal1 again from its next token on.
    expect((await client.auth.refreshSession()).error).toBeNull();
    expect((await client.auth.mfa.getAuthenticatorAssuranceLevel()).data!.currentLevel).toBe('aal1');
  });

  it('answers GoTrue\'s 404s for an unknown user or factor', async () => {
    const unknown = '00000000-0000-4000-8000-00000000dead';
    expect((await admin().mfa.listFactors({ userId: unknown })).error).toMatchObject({ status: 404, code: 'user_not_found' });
    const { user } = await signUpConfirmed(backend, uniqueEmail('sem-fator'), 'segredo1');
    expect((await admin().mfa.deleteFactor({ userId: user.id, id: unknown })).error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    const notUuid = await authFetch(backend.url, `/admin/users/${user.id}/factors/nao-e-uuid`, { method: 'DELETE', token: SERVICE_ROLE_KEY });
    expect(notUuid.status).toBe(404);
    expect(notUuid.body.code).toBe('validation_failed');
  });

  it('refuses a signed-in user (even the factor\'s owner) and the anon key: the factor stays', async () => {
    const victim = await withFactor('vitima-fator');
    const attacker = await withFactor('atacante-fator');
    for (const token of [await accessToken(attacker.client), await accessToken(victim.client), ANON_KEY]) {
      const list = await authFetch(backend.url, `/admin/users/${victim.user.id}/factors`, { token });
      expect(list.status).toBe(403);
      expect(list.body).toMatchObject({ code: 'not_admin', message: 'User not allowed' });
      expect(list.body).not.toHaveProperty('factors');
      const del = await authFetch(backend.url, `/admin/users/${victim.user.id}/factors/${victim.factorId}`, { method: 'DELETE', token });
      expect(del.status).toBe(403);
      const rename = await authFetch(backend.url, `/admin/users/${victim.user.id}/factors/${victim.factorId}`, { method: 'PUT', token, body: { friendly_name: 'x' } });
      expect(rename.status).toBe(403);
    }
    expect(await factorRows(victim.user.id)).toEqual([{ id: victim.factorId }]);
    expect(
      (await backend.server.ctx.engine.query('select friendly_name from auth.mfa_factors where id = $1', [victim.factorId])).rows,
    ).toEqual([{ friendly_name: 'Celular' }]);
  });
});

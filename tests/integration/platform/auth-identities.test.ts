// The user's identities as GoTrue keeps them (issue 37): an e-mail account has its `email` identity
// from the moment it exists (sign-up, admin create, invite, passwordless sign-up), verified once its
// owner opens the link and following the address through an e-mail change; getUserIdentities() lists
// it. Linking another provider is refused as on a project with manual linking off, and anonymous
// sign-ins stay off here (this project's config.toml): no account without an address is made.
import { describe, expect, it } from 'vitest';
import { authFetch, confirmationLink, inbox, openLink, signUpConfirmed, uniqueEmail } from '../auth-helpers.ts';
import { ANON_KEY, useBackend } from '../harness.ts';

const backend = useBackend();

const sql = async <T,>(text: string, params: unknown[] = []) => (await backend.server.ctx.engine.query<T>(text, params)).rows;

/** The client of a signed-in session of `accessToken` (as the SPA holds one). */
async function sessionClient(accessToken: string, refreshToken: string) {
  const client = backend.anon();
  const { error } = await client.auth.setSession({ access_token: accessToken, refresh_token: refreshToken });
  expect(error).toBeNull();
  return client;
}

describe('identities', () => {
  it('an e-mail account lists its email identity, verified once the confirmation link was opened', async () => {
    const email = uniqueEmail('Identidade');
    const { user, accessToken, refreshToken } = await signUpConfirmed(backend, email, 'segredo1', { name: 'Ana Souza' });
    const client = await sessionClient(accessToken, refreshToken);
    const { data, error } = await client.auth.getUserIdentities();
    expect(error).toBeNull();
    expect(data!.identities).toEqual([
      {
        identity_id: expect.any(String),
        id: user.id,
        user_id: user.id,
        identity_data: { sub: user.id, email: email.toLowerCase(), email_verified: true, phone_verified: false, name: 'Ana Souza' },
        provider: 'email',
        last_sign_in_at: expect.any(String),
        created_at: expect.any(String),
        updated_at: expect.any(String),
        email: email.toLowerCase(),
      },
    ]);
    // The row GoTrue would have written, as the database holds it.
    expect(await sql('select provider, provider_id, email from auth.identities where user_id = $1', [user.id])).toEqual([
      { provider: 'email', provider_id: user.id, email: email.toLowerCase() },
    ]);
  });

  it('accounts made by the admin API, by an invite and by a passwordless sign-up have theirs too', async () => {
    const admin = backend.service().auth.admin;
    const created = await admin.createUser({ email: uniqueEmail('criada'), password: 'segredo1', email_confirm: true });
    expect(created.error).toBeNull();
    expect(created.data.user!.identities).toMatchObject([{ provider: 'email', id: created.data.user!.id, identity_data: { email_verified: false } }]);

    const invitedEmail = uniqueEmail('convidada');
    const invited = await admin.inviteUserByEmail(invitedEmail);
    expect(invited.error).toBeNull();
    expect(invited.data.user!.identities).toMatchObject([{ provider: 'email', identity_data: { email: invitedEmail.toLowerCase() } }]);

    const otpEmail = uniqueEmail('sem-senha');
    expect((await backend.anon().auth.signInWithOtp({ email: otpEmail })).error).toBeNull();
    await inbox(backend, otpEmail);
    expect(await sql(`select i.provider from auth.identities i join auth.users u on u.id = i.user_id where u.email = $1`, [otpEmail.toLowerCase()])).toEqual([
      { provider: 'email' },
    ]);
  });

  it('the identity follows the address through an e-mail change once both links are opened', async () => {
    const oldEmail = uniqueEmail('antigo');
    const newEmail = uniqueEmail('novo');
    const { user, accessToken, refreshToken } = await signUpConfirmed(backend, oldEmail, 'segredo1');
    const client = await sessionClient(accessToken, refreshToken);
    expect((await client.auth.updateUser({ email: newEmail })).error).toBeNull();
    for (const to of [newEmail, oldEmail]) {
      const mail = (await inbox(backend, to)).find((m) => m.subject === 'Confirme a alteração de e-mail');
      await openLink(mail!.links[0]!);
    }
    const { data } = await client.auth.getUserIdentities();
    expect(data!.identities).toMatchObject([{ id: user.id, email: newEmail.toLowerCase(), identity_data: { email: newEmail.toLowerCase(), email_verified: true } }]);
  });

  it('a sign-up still pending lists an unverified identity; getUserIdentities() needs a session', async () => {
    const email = uniqueEmail('pendente');
    const { data } = await backend.anon().auth.signUp({ email, password: 'segredo1' });
    expect(data.user!.identities).toMatchObject([{ provider: 'email', identity_data: { email_verified: false } }]);
    expect(await confirmationLink(backend, email)).toContain('/verify');
    expect((await backend.anon().auth.getUserIdentities()).error?.message).toBe('Auth session missing!');
  });

  it('refuses linking another provider and unlinking the identity, as GoTrue with manual linking off', async () => {
    const { accessToken, refreshToken } = await signUpConfirmed(backend, uniqueEmail('vinculo'), 'segredo1');
    const client = await sessionClient(accessToken, refreshToken);
    const link = await client.auth.linkIdentity({ provider: 'google', options: { skipBrowserRedirect: true } });
    expect(link.error).toMatchObject({ status: 422, code: 'manual_linking_disabled', message: 'Manual linking is disabled' });
    const { data } = await client.auth.getUserIdentities();
    const unlink = await client.auth.unlinkIdentity(data!.identities[0]!);
    expect(unlink.error).toMatchObject({ status: 422, code: 'manual_linking_disabled' });
    expect(await sql('select count(*)::int as n from auth.identities where identity_data ->> $1 = $2', ['sub', data!.identities[0]!.user_id])).toEqual([{ n: 1 }]);
    // Signed out, the same routes answer that a session is needed first.
    expect((await authFetch(backend.url, '/user/identities/authorize?provider=google')).status).toBe(401);
  });
});

describe('anonymous sign-ins (off in this project)', () => {
  it('refuses a sign-up without an address and makes no account; a sign-up with one still works', async () => {
    const before = await sql<{ n: number }>('select count(*)::int as n from auth.users');
    const res = await fetch(`${backend.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: ANON_KEY, 'Content-Type': 'application/json', 'X-Supabase-Api-Version': '2024-01-01' },
      body: JSON.stringify({ data: { name: 'Anônimo' } }),
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ code: 'anonymous_provider_disabled', message: 'Anonymous sign-ins are disabled' });
    const viaClient = await backend.anon().auth.signInAnonymously();
    expect(viaClient.error).toMatchObject({ code: 'anonymous_provider_disabled' });
    expect(viaClient.data.session).toBeNull();
    expect(await sql('select count(*)::int as n from auth.users')).toEqual(before);
    expect(await sql('select count(*)::int as n from auth.users where is_anonymous')).toEqual([{ n: 0 }]);
    // Control: an ordinary sign-up goes through.
    expect((await backend.anon().auth.signUp({ email: uniqueEmail('comum'), password: 'segredo1' })).error).toBeNull();
  });
});

// GET /reauthenticate as GoTrue answers it (issue 37): a signed-in user with a confirmed address gets
// a six-digit code in the local inbox; with `[auth.email] secure_password_change` a session older than
// 24 hours sets a new password only with that code (`nonce`), once. An account without an address (an
// anonymous one, on a project that allows them) is told it needs one.
import { afterAll, describe, expect, it } from 'vitest';
import { authFetch, inbox, projectWithConfig, signUpConfirmed, uniqueEmail } from '../auth-helpers.ts';
import { useBackend, type BackendLike } from '../harness.ts';

const SUBJECT = 'Confirme que é você';

/** The newest reauthentication code mailed to `email`. */
async function mailedCode(backend: BackendLike, email: string): Promise<string> {
  const mail = (await inbox(backend, email)).find((m) => m.subject === SUBJECT);
  expect(mail, `a reauthentication e-mail to ${email}`).toBeTruthy();
  return /\b(\d{6})\b/.exec(mail!.text)![1]!;
}

describe('this project (secure_password_change off)', () => {
  const backend = useBackend();

  it('mails a code to the signed-in user and answers {}; the password changes without it, as GoTrue does', async () => {
    const email = uniqueEmail('reauth');
    const { accessToken } = await signUpConfirmed(backend, email, 'segredo1');
    const r = await authFetch(backend.url, '/reauthenticate', { token: accessToken });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    expect(await mailedCode(backend, email)).toMatch(/^\d{6}$/);
    // The code is kept only as a digest.
    const row = await backend.server.ctx.engine.query<{ token: string }>('select reauthentication_token as token from auth.users where email = $1', [email]);
    expect(row.rows[0]!.token).toMatch(/^[0-9a-f]{64}$/);
    // A second request within max_frequency waits, as every auth e-mail does.
    const again = await authFetch(backend.url, '/reauthenticate', { token: accessToken });
    expect(again.status).toBe(429);
    expect(again.body.code).toBe('over_email_send_rate_limit');
    expect((await authFetch(backend.url, '/user', { method: 'PUT', token: accessToken, body: { password: 'segredo2' } })).status).toBe(200);
  });

  it('needs a session', async () => {
    const r = await authFetch(backend.url, '/reauthenticate');
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('no_authorization');
  });
});

describe('a project with secure_password_change and anonymous sign-ins on', () => {
  const project = projectWithConfig({ auth: ['enable_anonymous_sign_ins = true'], 'auth.email': ['secure_password_change = true'] });
  afterAll(() => project.remove()); // after the backend stops (after hooks run last-registered first)
  const backend = useBackend({ rootDir: project.dir });

  /** A confirmed account whose session began more than 24 hours ago. */
  async function oldSession(prefix: string) {
    const email = uniqueEmail(prefix);
    const account = await signUpConfirmed(backend, email, 'segredo1');
    await backend.server.ctx.engine.query(`update auth.sessions set created_at = now() - interval '25 hours' where user_id = $1`, [account.user.id]);
    return { email, ...account };
  }

  const passwordHash = async (id: string) =>
    (await backend.server.ctx.engine.query<{ h: string }>('select encrypted_password as h from auth.users where id = $1', [id])).rows[0]!.h;

  it('lets a recent session change its password without a code', async () => {
    const { accessToken } = await signUpConfirmed(backend, uniqueEmail('recente'), 'segredo1');
    expect((await authFetch(backend.url, '/user', { method: 'PUT', token: accessToken, body: { password: 'segredo2' } })).status).toBe(200);
  });

  it('refuses an old session’s new password without the code, or with a wrong one, and changes nothing', async () => {
    const { user, accessToken } = await oldSession('antiga');
    const before = await passwordHash(user.id);
    const none = await authFetch(backend.url, '/user', { method: 'PUT', token: accessToken, body: { password: 'roubada1' } });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ code: 'reauthentication_needed', message: 'Password update requires reauthentication' });
    expect((await authFetch(backend.url, '/reauthenticate', { token: accessToken })).status).toBe(200);
    const code = await mailedCode(backend, user.email!);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const guessed = await authFetch(backend.url, '/user', { method: 'PUT', token: accessToken, body: { password: 'roubada1', nonce: wrong } });
    expect(guessed.status).toBe(422);
    expect(guessed.body).toMatchObject({ code: 'reauthentication_not_valid', message: 'Nonce has expired or is invalid' });
    expect(await passwordHash(user.id)).toBe(before);
  });

  it('takes the mailed code once: the password changes, the same code does not work again', async () => {
    const { user, accessToken } = await oldSession('codigo');
    expect((await authFetch(backend.url, '/reauthenticate', { token: accessToken })).status).toBe(200);
    const code = await mailedCode(backend, user.email!);
    const before = await passwordHash(user.id);
    const ok = await authFetch(backend.url, '/user', { method: 'PUT', token: accessToken, body: { password: 'segredo2', nonce: code } });
    expect(ok.status).toBe(200);
    expect(await passwordHash(user.id)).not.toBe(before);
    const replay = await authFetch(backend.url, '/user', { method: 'PUT', token: accessToken, body: { password: 'segredo3', nonce: code } });
    expect(replay.status).toBe(422);
    expect((await backend.anon().auth.signInWithPassword({ email: user.email!, password: 'segredo2' })).error).toBeNull();
  });

  it('does not take one account’s code for another', async () => {
    const victim = await oldSession('vitima');
    const attacker = await oldSession('atacante');
    expect((await authFetch(backend.url, '/reauthenticate', { token: attacker.accessToken })).status).toBe(200);
    const attackersCode = await mailedCode(backend, attacker.user.email!);
    const before = await passwordHash(victim.user.id);
    const r = await authFetch(backend.url, '/user', { method: 'PUT', token: victim.accessToken, body: { password: 'roubada1', nonce: attackersCode } });
    expect(r.status).toBe(422);
    expect(await passwordHash(victim.user.id)).toBe(before);
  });

  it('tells an anonymous account it needs an address, which it can get like any account', async () => {
    const client = backend.anon();
    const anon = await client.auth.signInAnonymously({ options: { data: { origem: 'teste' } } });
    expect(anon.error).toBeNull();
    expect(anon.data.user).toMatchObject({ is_anonymous: true, email: '', identities: [], app_metadata: { provider: 'anonymous', providers: ['anonymous'] }, user_metadata: { origem: 'teste' } });
    const r = await client.auth.reauthenticate();
    expect(r.error).toMatchObject({ status: 400, code: 'validation_failed', message: 'Reauthentication requires the user to have an email or a phone number' });
    // Anonymous accounts enroll no second factor (GoTrue's requireNotAnonymous).
    expect((await client.auth.mfa.enroll({ factorType: 'totp' })).error).toMatchObject({ status: 403 });
  });
});

// Issue 19 items 1 and 9, as an attacker with the anon key sees them: a sign-up proves nothing until
// the address's owner opens the link mailed to it (no password sign-in before, the pt-BR e-mail in the
// inbox), a taken address is answered exactly like a new one (its owner is told by e-mail instead),
// /resend mails the link again as GoTrue does, and an account cannot move onto someone else's address.
import { describe, expect, it, vi } from 'vitest';
import { settled } from '../../../local-supabase/auth/background.ts';
import { auc, authFetch, CONFIRMATION_SUBJECT, confirmationLink, inbox, jwtPayload, median, openLink, signUpConfirmed, timedClient, uniqueEmail } from '../auth-helpers.ts';
import { useBackend } from '../harness.ts';

const backend = useBackend();

const SCHOOL_LOGIN = 'http://localhost:5173/escola-demo';
const REPEATED_SUBJECT = 'Tentativa de cadastro com o seu e-mail';

const signupRaw = (email: string, password = 'segredo1', data: Record<string, unknown> = { name: 'Nova Pessoa' }) =>
  authFetch(backend.url, `/signup?redirect_to=${encodeURIComponent(SCHOOL_LOGIN)}`, { method: 'POST', body: { email, password, data } });

async function userRow(email: string) {
  const r = await backend.server.ctx.engine.query<{ id: string; encrypted_password: string; email_confirmed_at: string | null; raw_user_meta_data: unknown }>(
    'select id::text as id, encrypted_password, email_confirmed_at::text as email_confirmed_at, raw_user_meta_data from auth.users where lower(email) = lower($1)',
    [email],
  );
  return r.rows;
}

describe('sign-up with confirmations on', () => {
  it('creates an unconfirmed account, mails the pt-BR confirmation, refuses the password until the link is opened, and the link signs in', async () => {
    const email = uniqueEmail('cadastro');
    const { data, error } = await backend.anon().auth.signUp({
      email,
      password: 'segredo1',
      options: { data: { name: 'Clara Cadastro' }, emailRedirectTo: SCHOOL_LOGIN },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user!.email_confirmed_at).toBeUndefined();
    expect((await userRow(email))[0]!.email_confirmed_at).toBeNull();

    // The password alone gets nobody in (GoTrue's 400 email_not_confirmed), the right one included.
    const early = await backend.anon().auth.signInWithPassword({ email, password: 'segredo1' });
    expect(early.data.session).toBeNull();
    expect(early.error).toMatchObject({ status: 400, code: 'email_not_confirmed', message: 'Email not confirmed' });
    // A wrong password learns nothing about the account's state.
    expect((await backend.anon().auth.signInWithPassword({ email, password: 'errada12' })).error?.code).toBe('invalid_credentials');

    const mails = await inbox(backend, email);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe(CONFIRMATION_SUBJECT);
    expect(mail.text).toContain(`criar uma conta com o e-mail ${email}`);
    expect(mail.text).toContain('Confirmar meu e-mail');
    expect(mail.links).toHaveLength(1);
    const link = new URL(mail.links[0]!);
    expect(link.origin + link.pathname).toBe(`${backend.url}/auth/v1/verify`);
    expect(link.searchParams.get('type')).toBe('signup');
    expect(link.searchParams.get('redirect_to')).toBe(SCHOOL_LOGIN);
    // Only the token's hash is stored: the database alone gives no working link.
    const stored = await backend.server.ctx.engine.query<{ confirmation_token: string }>('select confirmation_token from auth.users where lower(email) = $1', [email]);
    expect(stored.rows[0]!.confirmation_token).not.toContain(link.searchParams.get('token')!);

    const { location, fragment } = await openLink(mail.links[0]!);
    expect(location.origin + location.pathname).toBe(SCHOOL_LOGIN);
    expect(fragment.get('type')).toBe('signup');
    expect(jwtPayload(fragment.get('access_token')!)).toMatchObject({ sub: data.user!.id, email });
    expect((await userRow(email))[0]!.email_confirmed_at).not.toBeNull();
    // Once only.
    const again = await openLink(mail.links[0]!);
    expect(again.fragment.get('access_token')).toBeNull();
    expect(again.fragment.get('error_code')).toBe('otp_expired');

    const signedIn = await backend.anon().auth.signInWithPassword({ email, password: 'segredo1' });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data.user!.user_metadata).toMatchObject({ name: 'Clara Cadastro' });
  });

  it('POST /verify {type: signup, token_hash} confirms too; an expired link does not', async () => {
    const email = uniqueEmail('otp');
    expect((await signupRaw(email)).status).toBe(200);
    const token = new URL(await confirmationLink(backend, email)).searchParams.get('token')!;
    // One hour (otp_expiry) later the link is refused.
    await backend.server.ctx.engine.query(`update auth.users set confirmation_sent_at = now() - interval '61 minutes' where lower(email) = $1`, [email]);
    const late = await authFetch(backend.url, '/verify', { method: 'POST', body: { type: 'signup', token_hash: token } });
    expect(late.status).toBe(403);
    expect(late.body.code).toBe('otp_expired');
    await backend.server.ctx.engine.query(`update auth.users set confirmation_sent_at = now() where lower(email) = $1`, [email]);
    const ok = await backend.anon().auth.verifyOtp({ type: 'signup', token_hash: token });
    expect(ok.error).toBeNull();
    expect(ok.data.user!.email_confirmed_at).toBeTruthy();
  });

  it('an account whose password was blanked (encrypted_password empty) never signs in with a password', async () => {
    const email = uniqueEmail('sem-senha');
    await signUpConfirmed(backend, email, 'segredo1');
    await backend.server.ctx.engine.query(`update auth.users set encrypted_password = '' where lower(email) = $1`, [email]);
    for (const password of ['segredo1', '', ' ']) {
      const r = await authFetch(backend.url, '/token?grant_type=password', { method: 'POST', body: { email, password } });
      expect(r.status, JSON.stringify(password)).toBe(400);
      expect(r.body.code).toBe('invalid_credentials');
    }
    await backend.server.ctx.engine.query(`update auth.users set encrypted_password = null where lower(email) = $1`, [email]);
    expect((await backend.anon().auth.signInWithPassword({ email, password: 'segredo1' })).error?.code).toBe('invalid_credentials');
  });

  it('the seeded demo accounts are confirmed and sign in', async () => {
    const seeded = await backend.server.ctx.engine.query<{ email: string; confirmed: boolean }>(
      `select email, email_confirmed_at is not null as confirmed from auth.users where id::text like 'a0000000-%'`,
    );
    expect(seeded.rows.length).toBeGreaterThan(5);
    expect(seeded.rows.filter((r) => !r.confirmed)).toEqual([]);
    await backend.signIn('aluno@escola-demo.com.br');
  });
});

describe('sign-up is no oracle (issue 19 item 9)', () => {
  /** The answer with what differs between any two sign-ups (ids, the clock, the address) blanked out. */
  const shape = (body: Record<string, unknown>) => ({
    ...body,
    id: typeof body.id,
    created_at: typeof body.created_at,
    updated_at: typeof body.updated_at,
    confirmation_sent_at: typeof body.confirmation_sent_at,
    email: typeof body.email,
    identities: (body.identities as Record<string, unknown>[]).map((i) => {
      // Each answer's identity is its own account's, under its own address.
      expect([i.id, i.user_id, (i.identity_data as Record<string, unknown>).sub]).toEqual([body.id, body.id, body.id]);
      expect([i.email, (i.identity_data as Record<string, unknown>).email]).toEqual([body.email, body.email]);
      const blank = Object.fromEntries(['identity_id', 'id', 'user_id', 'created_at', 'updated_at', 'last_sign_in_at', 'email'].map((k) => [k, typeof i[k]]));
      return { ...i, ...blank, identity_data: { ...(i.identity_data as object), sub: 'sub', email: 'email' } };
    }),
  });

  it.each([
    ['a confirmed account', true],
    ['an account never confirmed', false],
  ])('answers %s exactly like a new address, keeps it untouched, and mails its owner instead', async (_, confirmed) => {
    const taken = uniqueEmail('dona');
    const created = await backend.service().auth.admin.createUser({ email: taken, password: 'senhaDaDona1', email_confirm: confirmed, user_metadata: { name: 'Dona da Conta' } });
    expect(created.error).toBeNull();
    const before = await userRow(taken);

    const fresh = await signupRaw(uniqueEmail('novo'), 'senhaDoAtacante1', { name: 'Atacante' });
    const probe = await signupRaw(taken.toUpperCase(), 'senhaDoAtacante1', { name: 'Atacante' });
    expect(probe.status).toBe(fresh.status);
    expect(probe.status).toBe(200);
    expect(Object.keys(probe.body).sort()).toEqual(Object.keys(fresh.body).sort());
    expect(probe.body.email).toBe(taken);
    expect(shape(probe.body)).toEqual(shape(fresh.body));
    expect(probe.body.identities).toHaveLength(1);
    expect(probe.body).not.toHaveProperty('access_token');
    // A fake id: not the owner's, and no account has it.
    expect(probe.body.id).not.toBe(created.data.user!.id);
    expect((await backend.server.ctx.engine.query('select 1 from auth.users where id = $1', [probe.body.id])).rows).toEqual([]);
    // Through supabase-js the same: no error, no session.
    const viaClient = await backend.anon().auth.signUp({ email: uniqueEmail('novo'), password: 'senhaDoAtacante1' });
    expect(viaClient.error).toBeNull();

    // The owner's account is exactly as it was: one row, her password, her metadata, her state.
    expect(await userRow(taken)).toEqual(before);
    expect((await backend.anon().auth.signInWithPassword({ email: taken, password: 'senhaDoAtacante1' })).error?.code).toBe('invalid_credentials');

    // She gets a pt-BR e-mail saying someone tried; it carries no link that confirms or signs in.
    const mails = await inbox(backend, taken);
    expect(mails.map((m) => m.subject)).toEqual([REPEATED_SUBJECT]);
    expect(mails[0]!.text).toContain('Alguém tentou criar uma conta');
    expect(mails[0]!.text).toContain('Esqueci minha senha');
    expect(mails[0]!.links.every((l) => !l.includes('/verify'))).toBe(true);
  });

  it('the database does the same work for a taken address: a slow insert trigger slows both alike', { timeout: 120_000 }, async () => {
    // Each account insert sleeps 25 ms: before the fix only a new address paid for it (and answered 200
    // where a taken one answered 422 at once).
    await backend.server.ctx.engine.exec(`
      create or replace function public.auth_test_slow_insert() returns trigger language plpgsql as $$
      begin perform pg_sleep(0.025); return new; end $$;
      create trigger auth_test_slow_insert after insert on auth.users for each row execute function public.auth_test_slow_insert();
    `);
    try {
      const N = 24;
      const taken: string[] = [];
      for (let i = 0; i < N; i++) {
        const email = uniqueEmail('tempo-dona');
        await backend.server.ctx.engine.query(
          `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
           values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1, '', now(), '{}', '{}', now(), now())`,
          [email],
        );
        taken.push(email);
      }
      const client = await timedClient(backend.url);
      const timesNew: number[] = [];
      const timesTaken: number[] = [];
      const measure = async (email: string, into: number[]) => {
        const r = await client.post('/signup', { email, password: 'segredo1', data: { name: 'Nova Pessoa' } });
        expect(r.status).toBe(200);
        into.push(r.ms);
        await settled(backend.server.ctx); // the e-mail is written: the next request starts on a quiet server
      };
      try {
        for (let i = 0; i < N; i++) {
          // Alternate which kind goes first, so a drift over the run hits both alike.
          if (i % 2) {
            await measure(taken[i]!, timesTaken);
            await measure(uniqueEmail('tempo-novo'), timesNew);
          } else {
            await measure(uniqueEmail('tempo-novo'), timesNew);
            await measure(taken[i]!, timesTaken);
          }
        }
      } finally {
        client.close();
      }
      const a = auc(timesTaken, timesNew);
      const info = `AUC ${a.toFixed(2)}; medians taken ${median(timesTaken).toFixed(1)} ms, new ${median(timesNew).toFixed(1)} ms`;
      // 0.5 ± 0.3 is 4 standard deviations of the AUC of 24 + 24 equal samples.
      expect(a, info).toBeGreaterThan(0.2);
      expect(a, info).toBeLessThan(0.8);
    } finally {
      await backend.server.ctx.engine.exec('drop trigger auth_test_slow_insert on auth.users; drop function public.auth_test_slow_insert();');
    }
  });
});

describe('POST /resend (type signup)', () => {
  it('mails a new confirmation link to an account not yet confirmed; the earlier link stops working', async () => {
    const email = uniqueEmail('reenvio');
    expect((await signupRaw(email)).status).toBe(200);
    const first = await confirmationLink(backend, email);
    // The per-address gap (max_frequency) of config.toml: a minute between two confirmations.
    const tooSoon = await backend.anon().auth.resend({ type: 'signup', email });
    expect(tooSoon.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    // A minute later (the server runs in this process: its clock moves too).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      const { data, error } = await backend.anon().auth.resend({ type: 'signup', email, options: { emailRedirectTo: SCHOOL_LOGIN } });
      expect(error).toBeNull();
      expect(data).toEqual({ user: null, session: null });
    } finally {
      vi.useRealTimers();
    }
    const mails = (await inbox(backend, email)).filter((m) => m.subject === CONFIRMATION_SUBJECT);
    expect(mails).toHaveLength(2);
    const second = mails[0]!.links[0]!;
    expect(second).not.toBe(first);
    expect((await openLink(first)).fragment.get('error_code')).toBe('otp_expired');
    const { location, fragment } = await openLink(second);
    expect(location.origin + location.pathname).toBe(SCHOOL_LOGIN);
    expect(fragment.get('type')).toBe('signup');
  });

  it('answers {} alike for a confirmed, an unknown and a pending address, and its limit alike too', async () => {
    const confirmed = uniqueEmail('confirmada');
    expect((await backend.service().auth.admin.createUser({ email: confirmed, password: 'segredo1', email_confirm: true })).error).toBeNull();
    const unknown = uniqueEmail('ninguem');
    const pending = uniqueEmail('pendente');
    expect((await backend.service().auth.admin.createUser({ email: pending, password: 'segredo1', email_confirm: false })).error).toBeNull();
    for (const email of [confirmed, unknown, pending]) {
      const first = await authFetch(backend.url, '/resend', { method: 'POST', body: { type: 'signup', email } });
      expect([first.status, first.body]).toEqual([200, {}]);
      const second = await authFetch(backend.url, '/resend', { method: 'POST', body: { type: 'signup', email } });
      expect(second.status).toBe(429);
      expect(second.body.code).toBe('over_email_send_rate_limit');
    }
    expect(await inbox(backend, confirmed)).toEqual([]);
    expect(await inbox(backend, unknown)).toEqual([]);
    expect((await inbox(backend, pending)).map((m) => m.subject)).toEqual([CONFIRMATION_SUBJECT]);
  });

  it('refuses what GoTrue refuses', async () => {
    const noType = await authFetch(backend.url, '/resend', { method: 'POST', body: { email: uniqueEmail() } });
    expect([noType.status, noType.body.code]).toEqual([400, 'validation_failed']);
    expect(noType.body.message).toBe('Missing one of these types: signup, email_change, sms, phone_change');
    const noEmail = await authFetch(backend.url, '/resend', { method: 'POST', body: { type: 'signup' } });
    expect([noEmail.status, noEmail.body.message]).toEqual([400, 'Type provided requires an email address']);
    const badEmail = await authFetch(backend.url, '/resend', { method: 'POST', body: { type: 'signup', email: 'nao-e-email' } });
    expect([badEmail.status, badEmail.body.code]).toEqual([400, 'validation_failed']);
  });
});

describe('an e-mail change is confirmed by both addresses', () => {
  it("a signed-in account cannot move onto a victim's address: nothing changes until the victim opens her link", async () => {
    const attacker = uniqueEmail('atacante');
    await signUpConfirmed(backend, attacker, 'segredo1');
    const victim = uniqueEmail('vitima');
    const client = await backend.signIn(attacker, 'segredo1');
    const { data, error } = await client.auth.updateUser({ email: victim });
    expect(error).toBeNull();
    expect(data.user!.email).toBe(attacker);

    const rows = await backend.server.ctx.engine.query<{ email: string; email_change: string }>('select email, email_change from auth.users where lower(email) = $1', [attacker]);
    expect(rows.rows).toEqual([{ email: attacker, email_change: victim }]);
    expect(await userRow(victim)).toEqual([]);
    expect((await backend.anon().auth.signInWithPassword({ email: victim, password: 'segredo1' })).error?.code).toBe('invalid_credentials');
    // The attacker opens the link of his own address: still not moved.
    const own = (await inbox(backend, attacker)).find((m) => m.subject === 'Confirme a alteração de e-mail')!;
    expect((await openLink(own.links[0]!)).fragment.get('message')).toMatch(/Confirmation link accepted/);
    expect(await userRow(victim)).toEqual([]);
    // The victim's inbox has the other link, which only she can open.
    expect((await inbox(backend, victim)).map((m) => m.subject)).toEqual(['Confirme a alteração de e-mail']);
  });
});

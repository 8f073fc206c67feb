// Two-factor sign-in for staff (issue 19): GoTrue's /factors routes through the real supabase-js
// (enroll, challenge, verify, unenroll, listFactors, getAuthenticatorAssuranceLevel), TOTP per RFC 6238
// with a code accepted once, and the database's rule that a session of aal1 gets no secret (integration
// keys, the school's webhook secret, the system key) when its account has a verified factor, nor any
// staff power when the school requires two-factor sign-in from its staff. Checked by what reaches the
// attacker and by the rows in the database.
import { request } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { authFetch, jwtPayload, signToken, uniqueEmail } from '../auth-helpers.ts';
import { ANON_KEY, startTestBackend, useBackend } from '../harness.ts';
import { accessToken, Authenticator, turnOnTwoFactor } from '../mfa-helpers.ts';
import { COURSE, EMAIL, SCHOOL, USER } from '../rls/seed.ts';

const backend = useBackend();

const db = () => backend.server.ctx.engine;

/** A confirmed account (with a profile of Escola Demo), signed in with its password. */
async function newAccount(prefix: string, role?: 'SCHOOL_ADMIN' | 'INSTRUCTOR' | 'STAFF') {
  const email = uniqueEmail(prefix);
  const { data, error } = await backend.service().auth.admin.createUser({
    email,
    password: 'segredo123',
    email_confirm: true,
    user_metadata: { name: 'Conta de Teste', school_id: SCHOOL.demo },
  });
  expect(error).toBeNull();
  if (role) {
    const { error: roleError } = await backend.service().from('user_roles').insert({ user_id: data.user!.id, school_id: SCHOOL.demo, role });
    expect(roleError).toBeNull();
  }
  return { id: data.user!.id, email, client: await backend.signIn(email, 'segredo123') };
}

const factorRows = async (userId: string) =>
  (
    await db().query<{ id: string; status: string; friendly_name: string }>(
      `select id::text as id, status::text as status, friendly_name from auth.mfa_factors where user_id = $1 order by created_at`,
      [userId],
    )
  ).rows;

describe('GoTrue factor routes through supabase-js', () => {
  it('enrolls a TOTP factor: an SVG QR code, the base32 secret and its otpauth URI; listed as unverified', async () => {
    const { id, email, client } = await newAccount('enroll');
    const { data, error } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Meu celular', issuer: 'Escola Demo' });
    expect(error).toBeNull();
    expect(data!.type).toBe('totp');
    expect(data!.friendly_name).toBe('Meu celular');
    expect(data!.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(data!.totp.qr_code.startsWith('data:image/svg+xml;utf-8,<svg')).toBe(true);
    expect(data!.totp.qr_code).not.toContain('#'); // a '#' would end the data: URI
    expect(data!.totp.uri).toBe(
      `otpauth://totp/Escola%20Demo:${email}?algorithm=SHA1&digits=6&issuer=Escola+Demo&period=30&secret=${data!.totp.secret}`,
    );
    expect(await factorRows(id)).toEqual([{ id: data!.id, status: 'unverified', friendly_name: 'Meu celular' }]);

    const listed = await client.auth.mfa.listFactors();
    expect(listed.error).toBeNull();
    expect(listed.data!.all.map((f) => [f.id, f.status, f.factor_type])).toEqual([[data!.id, 'unverified', 'totp']]);
    expect(listed.data!.totp).toEqual([]);
    const level = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });

    // The same friendly name twice is GoTrue's conflict; an unverified factor is removed freely.
    const again = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Meu celular' });
    expect(again.error).toMatchObject({ status: 422, code: 'mfa_factor_name_conflict' });
    const removed = await client.auth.mfa.unenroll({ factorId: data!.id });
    expect(removed.error).toBeNull();
    expect(await factorRows(id)).toEqual([]);
    // Only the authenticator app is on: phone factors are GoTrue's "not enabled".
    const phone = await client.auth.mfa.enroll({ factorType: 'phone', phone: '+5511999999999' });
    expect(phone.error).toMatchObject({ status: 422, code: 'mfa_phone_enroll_not_enabled' });
  });

  it('verifies with the code of the app: aal2 with totp in amr, kept by refresh; a wrong or reused code is refused', async () => {
    const { id, client } = await newAccount('verify');
    const { data: enrolled } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'App' });
    const app = new Authenticator(enrolled!.totp.secret);

    const challenge = await client.auth.mfa.challenge({ factorId: enrolled!.id });
    expect(challenge.error).toBeNull();
    expect(challenge.data!.type).toBe('totp');
    expect(challenge.data!.expires_at).toBeGreaterThan(Date.now() / 1000 + 290);
    const wrongCode = String((Number(app.current()) + 1) % 1_000_000).padStart(6, '0');
    const wrong = await client.auth.mfa.verify({ factorId: enrolled!.id, challengeId: challenge.data!.id, code: wrongCode });
    expect(wrong.error).toMatchObject({ status: 422, code: 'mfa_verification_failed', message: 'Invalid TOTP code entered' });
    expect((await factorRows(id))[0]!.status).toBe('unverified');

    const code = await app.next();
    const ok = await client.auth.mfa.verify({ factorId: enrolled!.id, challengeId: challenge.data!.id, code });
    expect(ok.error).toBeNull();
    const claims = jwtPayload(ok.data!.access_token);
    expect(claims.aal).toBe('aal2');
    expect((claims.amr as { method: string }[]).map((a) => a.method).sort()).toEqual(['password', 'totp']);
    expect(claims.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await factorRows(id))[0]!.status).toBe('verified');
    expect((await client.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    expect((await client.auth.mfa.listFactors()).data!.totp.map((f) => f.id)).toEqual([enrolled!.id]);
    const { data: user } = await client.auth.getUser();
    expect(user.user!.factors).toEqual([expect.objectContaining({ id: enrolled!.id, status: 'verified', factor_type: 'totp', friendly_name: 'App' })]);

    // A challenge is answered once, and the same code never works twice (not even on a new challenge).
    const reuseSameChallenge = await client.auth.mfa.verify({ factorId: enrolled!.id, challengeId: challenge.data!.id, code });
    expect(reuseSameChallenge.error).toMatchObject({ status: 422, code: 'mfa_ip_address_mismatch' });
    const replay = await client.auth.mfa.challengeAndVerify({ factorId: enrolled!.id, code });
    expect(replay.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
    const verifiedChallenges = await db().query(`select 1 from auth.mfa_challenges where factor_id = $1 and verified_at is not null`, [enrolled!.id]);
    expect(verifiedChallenges.rows).toHaveLength(1);

    // The refresh token issued with aal2 keeps aal2.
    const refreshed = await client.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(jwtPayload(refreshed.data.session!.access_token)).toMatchObject({ aal: 'aal2', session_id: claims.session_id });
  });

  it('signs in with the password at aal1 (next level aal2); a verified factor is removed only from aal2', async () => {
    const { id, email, client } = await newAccount('unenroll');
    const { factorId, app } = await turnOnTwoFactor(client);

    const second = await backend.signIn(email, 'segredo123');
    const level = await second.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
    expect(jwtPayload(await accessToken(second))).toMatchObject({ aal: 'aal1', amr: [{ method: 'password', timestamp: expect.any(Number) }] });
    const refused = await second.auth.mfa.unenroll({ factorId });
    expect(refused.error).toMatchObject({ status: 422, code: 'insufficient_aal' });
    expect(await factorRows(id)).toHaveLength(1);
    // A second factor cannot be added from aal1 either (it would step around the first).
    const enrollRefused = await second.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Outro' });
    expect(enrollRefused.error).toMatchObject({ status: 403, code: 'insufficient_aal' });

    const up = await second.auth.mfa.challengeAndVerify({ factorId, code: await app.next() });
    expect(up.error).toBeNull();
    const removed = await second.auth.mfa.unenroll({ factorId });
    expect(removed.error).toBeNull();
    expect(removed.data).toEqual({ id: factorId });
    expect(await factorRows(id)).toEqual([]);
    // The session that had verified with it is aal1 again, from its next token on.
    const sid = jwtPayload(await accessToken(second)).session_id as string;
    const session = await db().query<{ aal: string }>(`select aal::text as aal from auth.sessions where id = $1`, [sid]);
    expect(session.rows[0]!.aal).toBe('aal1');
    const after = await second.auth.refreshSession();
    expect(jwtPayload(after.data.session!.access_token).aal).toBe('aal1');
  });

  it("verifying ends the account's other aal1 sessions, as GoTrue does", async () => {
    const { id, email, client } = await newAccount('sessions');
    const other = await backend.signIn(email, 'segredo123');
    const otherSession = jwtPayload(await accessToken(other)).session_id;
    await turnOnTwoFactor(client);
    const left = await db().query(`select 1 from auth.sessions where id = $1`, [otherSession]);
    expect(left.rows).toEqual([]);
    const refresh = await other.auth.refreshSession();
    expect(refresh.error).toMatchObject({ status: 400 });
    const sessions = await db().query<{ aal: string }>(`select aal::text as aal from auth.sessions where user_id = $1`, [id]);
    expect(sessions.rows.map((r) => r.aal)).toEqual(['aal2']);
  });

  it('refuses an expired challenge, one answered from another address, and a factor of another user', async () => {
    const a = await newAccount('expired');
    const b = await newAccount('intruso');
    const { data: enrolled } = await a.client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'App' });
    const app = new Authenticator(enrolled!.totp.secret);

    const old = await a.client.auth.mfa.challenge({ factorId: enrolled!.id });
    await db().query(`update auth.mfa_challenges set created_at = now() - interval '6 minutes' where id = $1`, [old.data!.id]);
    const expired = await a.client.auth.mfa.verify({ factorId: enrolled!.id, challengeId: old.data!.id, code: await app.next() });
    expect(expired.error).toMatchObject({ status: 422, code: 'mfa_challenge_expired' });

    // A challenge made from 127.0.0.1 and answered from 127.0.0.2 (another client of the loopback).
    const fresh = await a.client.auth.mfa.challenge({ factorId: enrolled!.id });
    const fromElsewhere = await postFrom('127.0.0.2', `/auth/v1/factors/${enrolled!.id}/verify`, await accessToken(a.client), {
      challenge_id: fresh.data!.id,
      code: await app.next(),
    });
    expect(fromElsewhere).toMatchObject({ status: 422, body: { code: 'mfa_ip_address_mismatch' } });

    // Another user's factor does not exist for the caller.
    const stolen = await b.client.auth.mfa.challenge({ factorId: enrolled!.id });
    expect(stolen.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    expect((await factorRows(a.id))[0]!.status).toBe('unverified');
  });
});

describe('rate limit of second-factor codes', () => {
  it('answers 429 past token_verifications per 5 minutes, right or wrong codes alike', async () => {
    const limited = await startTestBackend({ authRateLimits: { signInSignUps: 0, tokenRefresh: 0, tokenVerifications: 3 } });
    try {
      const email = uniqueEmail('limite');
      await limited.service().auth.admin.createUser({ email, password: 'segredo123', email_confirm: true });
      const client = await limited.signIn(email, 'segredo123');
      const { data: enrolled } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'App' });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const c = await client.auth.mfa.challenge({ factorId: enrolled!.id });
        const r = await client.auth.mfa.verify({ factorId: enrolled!.id, challengeId: c.data!.id, code: '000000' });
        statuses.push(r.error!.status!);
      }
      expect(statuses).toEqual([422, 422, 422, 429]);
      const c = await client.auth.mfa.challenge({ factorId: enrolled!.id });
      const right = await client.auth.mfa.verify({ factorId: enrolled!.id, challengeId: c.data!.id, code: new Authenticator(enrolled!.totp.secret).current() });
      expect(right.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
      const status = await limited.server.ctx.engine.query<{ status: string }>(`select status::text as status from auth.mfa_factors where id = $1`, [enrolled!.id]);
      expect(status.rows[0]!.status).toBe('unverified');
    } finally {
      await limited.stop();
    }
  });
});

/** A POST to the API from another loopback address (the server listens on 127.0.0.1). */
function postFrom(localAddress: string, path: string, token: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const url = new URL(backend.url);
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: url.port,
        path,
        method: 'POST',
        localAddress,
        headers: {
          apikey: ANON_KEY,
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-supabase-api-version': '2024-01-01',
          'content-length': Buffer.byteLength(data),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

// ── The database: secrets and staff powers at aal1 ──────────────────────────────────────────
const DEMO_INTEGRATION = 'ee000000-0000-4000-8000-000000000001';
const NEW_TOKEN = 'whtok_novo_token_de_teste_0123456789abcdef';

const webhookSecret = async (school: string) =>
  (await db().query<{ secret: string }>(`select secret from private.school_webhook_secrets where school_id = $1`, [school])).rows[0]!.secret;
const integrationTokens = async (id: string) =>
  (
    await db().query<{ webhook_token: string | null; api_key: string }>(
      `select webhook_token, api_key from private.integration_secrets where integration_id = $1`,
      [id],
    )
  ).rows[0]!;
const integrationCount = async (school: string) =>
  Number((await db().query<{ n: string }>(`select count(*)::text as n from public.integration_settings where school_id = $1`, [school])).rows[0]!.n);

describe('secrets of a staff account with two-factor on', () => {
  let aal2: SupabaseClient;
  let aal1: SupabaseClient;
  beforeAll(async () => {
    aal2 = await backend.signIn(EMAIL.adminDemo);
    await turnOnTwoFactor(aal2);
    // The password alone, as an attacker who learned it signs in.
    aal1 = await backend.signIn(EMAIL.adminDemo);
    expect(jwtPayload(await accessToken(aal1)).aal).toBe('aal1');
  });

  it('an aal1 session reads no integration, no webhook secret, and stores none', async () => {
    const rows = await aal1.from('integration_settings').select('id, api_key_last4').eq('school_id', SCHOOL.demo);
    expect(rows.error).toBeNull();
    expect(rows.data).toEqual([]);

    const reveal = await aal1.rpc('reveal_school_webhook_secret', { p_school_id: SCHOOL.demo });
    expect(reveal.error?.code).toBe('42501');
    expect(reveal.data).toBeNull();

    const before = await webhookSecret(SCHOOL.demo);
    const rotate = await aal1.rpc('rotate_school_webhook_secret', { p_school_id: SCHOOL.demo });
    expect(rotate.error?.code).toBe('42501');
    expect(await webhookSecret(SCHOOL.demo)).toBe(before);

    const count = await integrationCount(SCHOOL.demo);
    const created = await aal1.rpc('create_integration', {
      p_provider: 'asaas', p_environment: 'production', p_api_key: '$aact_chave_do_atacante', p_school_id: SCHOOL.demo, p_webhook_token: NEW_TOKEN,
    });
    expect(created.error?.code).toBe('42501');
    expect(await integrationCount(SCHOOL.demo)).toBe(count);

    const tokenBefore = await integrationTokens(DEMO_INTEGRATION);
    const setToken = await aal1.rpc('set_integration_webhook_token', { p_integration_id: DEMO_INTEGRATION, p_token: NEW_TOKEN });
    expect(setToken.error?.code).toBe('42501');
    expect(await integrationTokens(DEMO_INTEGRATION)).toEqual(tokenBefore);

    const off = await aal1.from('integration_settings').update({ is_active: false }).eq('id', DEMO_INTEGRATION).select('id');
    expect(off.data ?? []).toEqual([]);
    const del = await aal1.from('integration_settings').delete().eq('id', DEMO_INTEGRATION).select('id');
    expect(del.data ?? []).toEqual([]);
    const row = await db().query<{ is_active: boolean }>(`select is_active from public.integration_settings where id = $1`, [DEMO_INTEGRATION]);
    expect(row.rows).toEqual([{ is_active: true }]);
  });

  it('an aal1 session has no staff power at all: the password alone is not enough', async () => {
    const counts = await aal1.rpc('admin_dashboard_counts', { p_school_id: SCHOOL.demo });
    expect(counts.error?.code).toBe('42501');
    const students = await aal1.from('profiles').select('id').eq('school_id', SCHOOL.demo).neq('id', USER.adminDemo);
    expect(students.data).toEqual([]);
  });

  it("the staff edge functions refuse the aal1 session too: no student's password is reset", async () => {
    const call = async (client: SupabaseClient) =>
      fetch(`${backend.url}/functions/v1/admin-reset-password`, {
        method: 'POST',
        headers: { apikey: ANON_KEY, authorization: `Bearer ${await accessToken(client)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ user_id: USER.aluna, new_password: 'senha-do-atacante' }),
      });
    const hash = async () => (await db().query<{ h: string }>(`select encrypted_password as h from auth.users where id = $1`, [USER.aluna])).rows[0]!.h;
    const before = await hash();
    const refused = await call(aal1);
    expect(refused.status).toBe(403);
    expect(await hash()).toBe(before);
    const allowed = await call(aal2);
    expect(allowed.status).toBe(200);
    expect(await hash()).not.toBe(before);
  });

  it('the aal2 session reads and stores them', async () => {
    const rows = await aal2.from('integration_settings').select('id').eq('school_id', SCHOOL.demo);
    expect(rows.data!.map((r) => r.id)).toContain(DEMO_INTEGRATION);
    const reveal = await aal2.rpc('reveal_school_webhook_secret', { p_school_id: SCHOOL.demo });
    expect(reveal.error).toBeNull();
    expect(reveal.data).toBe(await webhookSecret(SCHOOL.demo));
    const setToken = await aal2.rpc('set_integration_webhook_token', { p_integration_id: DEMO_INTEGRATION, p_token: NEW_TOKEN });
    expect(setToken.error).toBeNull();
    expect((await integrationTokens(DEMO_INTEGRATION)).webhook_token).toBe(NEW_TOKEN);
    const rotate = await aal2.rpc('rotate_school_webhook_secret', { p_school_id: SCHOOL.demo });
    expect(rotate.error).toBeNull();
    expect(await webhookSecret(SCHOOL.demo)).toBe(rotate.data);
  });

  it('a forged token claiming aal2 without the project secret is refused', async () => {
    const forged = await signToken(
      { sub: USER.adminDemo, role: 'authenticated', aud: 'authenticated', aal: 'aal2', session_id: jwtPayload(await accessToken(aal1)).session_id },
      { secret: 'not-the-project-secret-not-the-project-secret' },
    );
    const res = await fetch(`${backend.url}/rest/v1/rpc/reveal_school_webhook_secret`, {
      method: 'POST',
      headers: { apikey: ANON_KEY, authorization: `Bearer ${forged}`, 'content-type': 'application/json' },
      body: JSON.stringify({ p_school_id: SCHOOL.demo }),
    });
    expect(res.status).toBe(401);
    expect(await res.text()).not.toContain(await webhookSecret(SCHOOL.demo));
    const factors = await authFetch(backend.url, '/factors', { method: 'POST', token: forged, body: { factor_type: 'totp' } });
    expect(factors.status).toBe(403);
  });
});

describe('the system key of a super admin with two-factor on', () => {
  it('is neither read nor replaced from aal1, and is from aal2', async () => {
    const aal2 = await backend.signIn(EMAIL.super);
    await turnOnTwoFactor(aal2);
    const aal1 = await backend.signIn(EMAIL.super);
    const secret = async () => (await db().query<{ value: string }>(`select value from private.system_secrets`)).rows.map((r) => r.value);
    const before = await secret();

    const read = await aal1.from('system_config').select('key, value_last4');
    expect(read.error).toBeNull();
    expect(read.data).toEqual([]);
    const set = await aal1.rpc('set_system_config', { p_key: 'ASAAS_API_KEY', p_value: '$aact_chave_do_atacante' });
    expect(set.error?.code).toBe('42501');
    expect(await secret()).toEqual(before);
    // The super admin's other secrets too: every school's integrations and webhook secrets.
    expect((await aal1.from('integration_settings').select('id')).data).toEqual([]);
    expect((await aal1.rpc('reveal_school_webhook_secret', { p_school_id: SCHOOL.rival })).error?.code).toBe('42501');

    expect((await aal2.from('system_config').select('key')).data).toEqual([{ key: 'ASAAS_API_KEY' }]);
    const ok = await aal2.rpc('set_system_config', { p_key: 'ASAAS_API_KEY', p_value: '$aact_nova_chave_do_sistema' });
    expect(ok.error).toBeNull();
    expect(await secret()).toEqual(['$aact_nova_chave_do_sistema']);
  });
});

describe("a school's requirement of two-factor sign-in for its staff", () => {
  it('only its admin turns it on, from aal2; then staff without a factor have no staff power until they set one up', async () => {
    const require = async (client: SupabaseClient, on: boolean) =>
      client.from('schools').update({ require_staff_mfa: on }).eq('id', SCHOOL.rival).select('require_staff_mfa');
    const required = async () =>
      (await db().query<{ r: boolean }>(`select require_staff_mfa as r from public.schools where id = $1`, [SCHOOL.rival])).rows[0]!.r;
    const staffEmail = uniqueEmail('equipe');
    const { data: created } = await backend.service().auth.admin.createUser({
      email: staffEmail, password: 'segredo123', email_confirm: true, user_metadata: { name: 'Equipe Rival', school_id: SCHOOL.rival },
    });
    await backend.service().from('user_roles').insert({ user_id: created.user!.id, school_id: SCHOOL.rival, role: 'STAFF' });
    const staff = await backend.signIn(staffEmail, 'segredo123');
    // Before: the staff member works from a password-only session.
    expect((await staff.rpc('admin_dashboard_counts', { p_school_id: SCHOOL.rival })).error).toBeNull();

    // The admin, signed in with the password only, cannot require it (no lock-out); staff never can.
    const admin = await backend.signIn(EMAIL.adminRival);
    const early = await require(admin, true);
    expect(early.error).toMatchObject({ code: '42501' });
    expect(early.error!.message).toContain('Ative a verificação em duas etapas');
    await turnOnTwoFactor(staff);
    const byStaff = await require(staff, true);
    expect(byStaff.error).toMatchObject({ code: '42501' });
    expect(await required()).toBe(false);
    await turnOnTwoFactor(admin);
    const on = await require(admin, true);
    expect(on.error).toBeNull();
    expect(await required()).toBe(true);

    // A staff account of the school without a factor, signed in with its password.
    const newStaffEmail = uniqueEmail('semfator');
    const { data: other } = await backend.service().auth.admin.createUser({
      email: newStaffEmail, password: 'segredo123', email_confirm: true, user_metadata: { name: 'Sem Fator', school_id: SCHOOL.rival },
    });
    await backend.service().from('user_roles').insert({ user_id: other.user!.id, school_id: SCHOOL.rival, role: 'SCHOOL_ADMIN' });
    const noFactor = await backend.signIn(newStaffEmail, 'segredo123');
    expect((await noFactor.rpc('admin_dashboard_counts', { p_school_id: SCHOOL.rival })).error?.code).toBe('42501');
    expect((await noFactor.from('integration_settings').select('id')).data).toEqual([]);
    expect((await noFactor.rpc('reveal_school_webhook_secret', { p_school_id: SCHOOL.rival })).error?.code).toBe('42501');
    const courses = await db().query(`select 1 from public.courses where school_id = $1`, [SCHOOL.rival]);
    const insert = await noFactor.from('courses').insert({ school_id: SCHOOL.rival, title: 'Curso do intruso', slug: 'intruso' }).select('id');
    expect(insert.error?.code).toBe('42501');
    expect((await db().query(`select 1 from public.courses where school_id = $1`, [SCHOOL.rival])).rows).toHaveLength(courses.rows.length);
    // It may still turn two-factor on (its own account), and then works from aal2.
    await turnOnTwoFactor(noFactor);
    expect((await noFactor.rpc('admin_dashboard_counts', { p_school_id: SCHOOL.rival })).error).toBeNull();

    // Students of the school are not concerned.
    const student = await backend.signIn(EMAIL.alunoRival);
    const lessons = await student.from('lessons').select('id').eq('course_id', COURSE.rival);
    expect(lessons.data!.length).toBeGreaterThan(0);

    // And the other school's staff neither.
    const demoStaff = await backend.signIn(EMAIL.instrutor);
    expect((await demoStaff.rpc('admin_dashboard_counts', { p_school_id: SCHOOL.demo })).error).toBeNull();
  });
});

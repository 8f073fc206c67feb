// Issue 22's "Acesso liberado" link (supabase/migrations/20261126000200_access_links.sql, the access-link
// function): a token that works once for 7 days and then leads to GoTrue's own recovery link; a used or
// expired one says why and may ask for one new e-mail; nobody reaches the tokens through the API.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ANON_KEY, useBackend } from '../harness.ts';
import { EMAIL, SCHOOL, USER } from '../rls/seed.ts';

const SITE = 'http://localhost:5999';
const backend = useBackend({ functionSecrets: { SITE_URL: SITE } });
const service = backend.service();
const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => (await backend.server.ctx.engine.query<T>(text, params)).rows;

/** A link as send-emails makes it: a random token, its SHA-256 recorded. */
async function newLink(user: string = USER.aluna, school: string = SCHOOL.demo): Promise<{ token: string; hash: string }> {
  const token = randomBytes(32).toString('base64url');
  const hash = createHash('sha256').update(token).digest('hex');
  const { error } = await service.rpc('create_access_link', { p_user_id: user, p_school_id: school, p_token_hash: hash });
  if (error) throw error;
  return { token, hash };
}
async function call(body: unknown) {
  const res = await fetch(`${backend.url}/functions/v1/access-link`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', apikey: ANON_KEY, Authorization: `Bearer ${ANON_KEY}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('access links', () => {
  it('works once: GoTrue recovery link to the school login page, then "Este link já foi usado."', async () => {
    const { token } = await newLink();
    const first = await call({ token });
    expect(first.status).toBe(200);
    expect(first.body.school_slug).toBe('escola-demo');
    const action = new URL(String(first.body.action_link));
    expect(action.pathname).toBe('/auth/v1/verify');
    expect(action.searchParams.get('type')).toBe('recovery');
    expect(action.searchParams.get('redirect_to')).toBe(`${SITE}/escola-demo`);
    // Following it signs the student in for choosing the password, on the school's page.
    const landed = await fetch(action, { redirect: 'manual' });
    expect(landed.status).toBe(303);
    const location = landed.headers.get('location') ?? '';
    expect(location.startsWith(`${SITE}/escola-demo#`)).toBe(true);
    expect(new URLSearchParams(location.split('#')[1]).get('type')).toBe('recovery');

    const second = await call({ token });
    expect(second).toEqual({ status: 410, body: { error: 'Este link já foi usado.', reason: 'used', can_resend: true, school_slug: 'escola-demo' } });
  });

  it('after 7 days: "Este link expirou."; a dead link mails one new access e-mail, only once', async () => {
    const { token, hash } = await newLink(USER.aluno);
    expect((await sql<{ days: number }>('select round(extract(epoch from expires_at - created_at) / 86400)::int as days from private.access_links where token_hash = $1', [hash]))[0]!.days).toBe(7);
    await sql("update private.access_links set created_at = now() - interval '8 days', expires_at = now() - interval '1 day' where token_hash = $1", [hash]);
    expect(await call({ token })).toMatchObject({ status: 410, body: { error: 'Este link expirou.', reason: 'expired' } });

    expect(await call({ token, resend: true })).toEqual({ status: 200, body: { resent: true, school_slug: 'escola-demo' } });
    const queued = await sql<{ kind: string; to_email: string; user_id: string; payload: { courses: string[] } }>(
      'select kind, to_email, user_id::text as user_id, payload from public.email_outbox where idempotency_key = $1',
      [`access-resend:${hash}`],
    );
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ kind: 'access_granted', to_email: EMAIL.aluno, user_id: USER.aluno });
    expect(queued[0]!.payload.courses).toEqual(['Excel Essencial para o Trabalho']);
    expect(JSON.stringify(queued[0]!.payload)).not.toMatch(/password|senha/i);

    expect(await call({ token, resend: true })).toMatchObject({ status: 409 });
    expect(await sql('select 1 from public.email_outbox where idempotency_key = $1', [`access-resend:${hash}`])).toHaveLength(1);
  });

  it('a live link cannot be used to mail new ones; a made-up or mangled token is "Link inválido"', async () => {
    const { token } = await newLink();
    expect(await call({ token, resend: true })).toMatchObject({ status: 409 });
    expect(await call({ token: randomBytes(32).toString('base64url') })).toEqual({ status: 404, body: { error: 'Link inválido' } });
    expect(await call({ token: "' or 1=1 --" })).toEqual({ status: 404, body: { error: 'Link inválido' } });
    expect(await call({})).toEqual({ status: 404, body: { error: 'Link inválido' } });
    // The live link still works after all that.
    expect((await call({ token })).status).toBe(200);
  });

  it('nobody but the service role reaches the links: no table through the API, no RPC', async () => {
    const { hash } = await newLink();
    const aluna = await backend.signIn(EMAIL.aluna);
    const admin = await backend.signIn(EMAIL.adminDemo);
    for (const client of [backend.anon(), aluna, admin]) {
      expect((await client.rpc('redeem_access_link', { p_token_hash: hash })).error).not.toBeNull();
      expect((await client.rpc('claim_access_link_resend', { p_token_hash: hash })).error).not.toBeNull();
      expect((await client.rpc('create_access_link', { p_user_id: USER.aluna, p_school_id: SCHOOL.demo, p_token_hash: 'a'.repeat(64) })).error).not.toBeNull();
    }
    expect(await sql('select used_at from private.access_links where token_hash = $1', [hash])).toEqual([{ used_at: null }]);
    expect(await sql("select 1 from private.access_links where token_hash = $1", ['a'.repeat(64)])).toEqual([]);
  });

  it("'Reenviar acesso': staff of the student's school queue one access e-mail per minute; nobody else can", async () => {
    const admin = await backend.signIn(EMAIL.adminDemo);
    const first = await admin.rpc('resend_student_access', { p_user_id: USER.aluno });
    expect(first.error).toBeNull();
    const again = await admin.rpc('resend_student_access', { p_user_id: USER.aluno });
    expect(again.data).toBe(first.data);
    const rows = await sql<{ kind: string; to_email: string; status: string }>("select kind, to_email, status from public.email_outbox where idempotency_key like $1", [`access-manual:${USER.aluno}:%`]);
    expect(rows).toEqual([{ kind: 'access_granted', to_email: EMAIL.aluno, status: 'queued' }]);

    const rival = await backend.signIn(EMAIL.adminRival);
    const aluna = await backend.signIn(EMAIL.aluna);
    for (const client of [rival, aluna, backend.anon()]) {
      expect((await client.rpc('resend_student_access', { p_user_id: USER.aluno })).error).not.toBeNull();
    }
    // Another school's staff cannot mail a student of theirs either way round.
    expect((await admin.rpc('resend_student_access', { p_user_id: USER.alunoRival })).error?.message).toBe('Aluno não encontrado');
    expect(await sql("select 1 from public.email_outbox where idempotency_key like $1", [`access-manual:${USER.alunoRival}:%`])).toEqual([]);
    expect(await sql("select 1 from public.email_outbox where idempotency_key like $1", [`access-manual:${USER.aluno}:%`])).toHaveLength(1);
  });

  it("'Reenviar acesso' is for the school's students: no access e-mail for a staff account or the super admin (issue 37)", async () => {
    const STUDENTS_ONLY = 'O acesso só pode ser reenviado a alunos da escola, não a contas da equipe ou de administradores.';
    const staffAccounts = [USER.super, USER.adminDemo, USER.instrutor];
    const accessMails = async () =>
      (await sql<{ n: number }>("select count(*)::int as n from public.email_outbox where kind = 'access_granted' and user_id = any($1::uuid[])", [staffAccounts]))[0]!.n;
    const links = async () => (await sql<{ n: number }>('select count(*)::int as n from private.access_links where user_id = any($1::uuid[])', [staffAccounts]))[0]!.n;
    const before = { mails: await accessMails(), links: await links() };

    const instrutor = await backend.signIn(EMAIL.instrutor);
    const admin = await backend.signIn(EMAIL.adminDemo);
    const superAdmin = await backend.signIn(EMAIL.super);
    for (const [client, target] of [
      [instrutor, USER.super],
      [instrutor, USER.adminDemo],
      [admin, USER.instrutor],
      [superAdmin, USER.adminDemo],
    ] as const) {
      const refused = await client.rpc('resend_student_access', { p_user_id: target });
      expect(refused.error?.message, target).toBe(STUDENTS_ONLY);
      expect(refused.data).toBeNull();
    }
    expect({ mails: await accessMails(), links: await links() }).toEqual(before);

    // Control: a student of the school still gets it, from the instructor too.
    const sent = await instrutor.rpc('resend_student_access', { p_user_id: USER.aluna });
    expect(sent.error).toBeNull();
    const rows = await sql<{ id: string; kind: string; to_email: string }>(
      'select id::text as id, kind, to_email from public.email_outbox where idempotency_key like $1',
      [`access-manual:${USER.aluna}:%`],
    );
    expect(rows).toEqual([{ id: sent.data, kind: 'access_granted', to_email: EMAIL.aluna }]);
  });
});

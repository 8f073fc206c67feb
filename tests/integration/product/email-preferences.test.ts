// Issue 22: which e-mails go out. The school turns optional kinds off (Settings → E-mails) and names the
// sender; a student stops a kind with the e-mail's own link (a signed token, no sign-in) or on the
// profile page. Checked by what the outbox and the inbox hold, and by what a forged token or another
// school's staff cannot do.
import { describe, expect, it } from 'vitest';
import { ANON_KEY, SERVICE_ROLE_KEY, useBackend } from '../harness.ts';
import { inbox } from '../auth-helpers.ts';
import { EMAIL, SCHOOL, USER } from '../rls/seed.ts';
import { fetchSchoolEmailSettings, saveSchoolEmailSettings } from '../../../src/features/email-preferences/api/queries.ts';

const backend = useBackend({ functionSecrets: { SITE_URL: 'http://localhost:5999' } });
const service = backend.service();
const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => (await backend.server.ctx.engine.query<T>(text, params)).rows;

const enqueue = async (key: string, kind: string, user: string = USER.aluno, to: string = EMAIL.aluno) =>
  (await service.rpc('enqueue_email', { p_school_id: SCHOOL.demo, p_user_id: user, p_to: to, p_kind: kind, p_key: key, p_payload: { course_title: 'Excel' } })).data as string | null;
const drain = () =>
  fetch(`${backend.url}/functions/v1/send-emails`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${SERVICE_ROLE_KEY}` }, body: '{}' });

describe('e-mail preferences', () => {
  it("the school's staff turn an optional kind off and name the sender; access and payments always go; another school cannot", async () => {
    const admin = await backend.signIn(EMAIL.adminDemo);
    const saved = await admin.from('school_email_settings').upsert({ school_id: SCHOOL.demo, disabled_kinds: ['we_miss_you'], sender_name: 'Equipe Demo', reply_to: 'contato@escola-demo.com.br' }).select();
    expect(saved.error).toBeNull();
    expect(await enqueue('pref:miss', 'we_miss_you')).toBeNull();
    expect(await enqueue('pref:access', 'access_granted')).not.toBeNull();
    // Access and payment kinds cannot be turned off at all.
    expect((await admin.from('school_email_settings').update({ disabled_kinds: ['access_granted'] }).eq('school_id', SCHOOL.demo).select()).error).not.toBeNull();

    const rival = await backend.signIn(EMAIL.adminRival);
    await rival.from('school_email_settings').update({ disabled_kinds: [] }).eq('school_id', SCHOOL.demo);
    expect((await rival.from('school_email_settings').insert({ school_id: SCHOOL.demo, disabled_kinds: [] })).error).not.toBeNull();
    expect((await rival.from('school_email_settings').select('school_id').eq('school_id', SCHOOL.demo)).data).toEqual([]);
    expect(await sql('select disabled_kinds from public.school_email_settings where school_id = $1', [SCHOOL.demo])).toEqual([{ disabled_kinds: ['we_miss_you'] }]);
    const aluno = await backend.signIn(EMAIL.aluno);
    expect((await aluno.from('school_email_settings').upsert({ school_id: SCHOOL.demo, disabled_kinds: [] }).select()).error).not.toBeNull();
  });

  it("an optional e-mail carries Descadastrar and the one-click header, from the school's sender name; the link stops that kind", async () => {
    await enqueue('pref:enroll:1', 'new_enrollment');
    expect(await (await drain()).json()).toMatchObject({ failed: 0, retried: 0 });
    const mail = (await inbox(backend, EMAIL.aluno)).find((m) => m.subject === 'Matrícula feita: Excel')!;
    expect(mail.from).toContain('Equipe Demo');
    expect(mail.reply_to).toContain('contato@escola-demo.com.br');
    const link = mail.links.find((l) => l.startsWith('http://localhost:5999/descadastrar#token='))!;
    const token = new URLSearchParams(link.split('#')[1]).get('token')!;
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(mail.headers['list-unsubscribe']).toContain(`/functions/v1/email-unsubscribe?token=${token}`);
    // The access e-mail (essential) has neither.
    const access = (await inbox(backend, EMAIL.aluno)).find((m) => m.subject === 'Escola Demo: seu acesso foi liberado')!;
    expect(access.links.some((l) => l.includes('descadastrar'))).toBe(false);
    expect(access.headers['list-unsubscribe']).toBeUndefined();

    // A forged or altered token does nothing.
    const page = async (t: string) => {
      const res = await fetch(`${backend.url}/functions/v1/email-unsubscribe`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', apikey: ANON_KEY, Authorization: `Bearer ${ANON_KEY}` },
        body: JSON.stringify({ token: t }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const [user, kind, mac] = token.split('.');
    for (const forged of [`${user}.we_miss_you.${mac}`, `${USER.aluna}.${kind}.${mac}`, `${user}.${kind}.${'0'.repeat(64)}`, 'x', '']) {
      expect(await page(forged), forged).toEqual({ status: 400, body: { error: 'Link inválido' } });
    }
    expect(await sql('select kind from public.email_unsubscribes where user_id = $1', [USER.aluna])).toEqual([]);
    // The API roles have no door of their own to it.
    expect((await backend.anon().rpc('unsubscribe_email', { p_token: token })).error).not.toBeNull();
    expect(await sql('select kind from public.email_unsubscribes where user_id = $1', [USER.aluno])).toEqual([]);

    // The page's call, signed out: that kind stops; others still go.
    expect(await page(token)).toEqual({ status: 200, body: { unsubscribed: 'new_enrollment' } });
    expect(await enqueue('pref:enroll:2', 'new_enrollment')).toBeNull();
    expect(await enqueue('pref:cert', 'certificate_available')).not.toBeNull();
  });

  it("the mail app's one-click POST stops the kind too; a bad token is refused", async () => {
    const { data: token } = await service.rpc('email_unsubscribe_token', { p_user_id: USER.aluno, p_kind: 'certificate_available' });
    const post = (t: string) =>
      fetch(`${backend.url}/functions/v1/email-unsubscribe?token=${t}`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', apikey: ANON_KEY }, body: 'List-Unsubscribe=One-Click' });
    expect((await post(`${token}0`)).status).toBe(400);
    expect((await post(String(token))).status).toBe(200);
    expect(await enqueue('pref:cert:2', 'certificate_available')).toBeNull();
    // Nobody else may mint tokens.
    expect((await backend.anon().rpc('email_unsubscribe_token', { p_user_id: USER.aluno, p_kind: 'we_miss_you' })).error).not.toBeNull();
  });

  // Issue 46: opening the link stopped the e-mails with no question and no way back.
  it('Descadastrar asks first: opening the address changes nothing, the confirmation stops the kind, Desfazer restores it, the one-click POST stops it', async () => {
    const { data: token } = await service.rpc('email_unsubscribe_token', { p_user_id: USER.pausado, p_kind: 'we_miss_you' });
    const stopped = async () => (await sql<{ kind: string }>('select kind from public.email_unsubscribes where user_id = $1', [USER.pausado])).map((r) => r.kind);
    expect(await stopped()).toEqual([]);

    // The List-Unsubscribe address opened in a browser (or by a link scanner): the page that asks, nothing stopped.
    const opened = await fetch(`${backend.url}/functions/v1/email-unsubscribe?token=${token}`, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe(`http://localhost:5999/descadastrar#token=${token}`);
    expect(await stopped()).toEqual([]);

    const page = async (body: object) => {
      const res = await fetch(`${backend.url}/functions/v1/email-unsubscribe`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', apikey: ANON_KEY, Authorization: `Bearer ${ANON_KEY}` },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    expect(await page({ token, action: 'unsubscribe' })).toEqual({ status: 200, body: { unsubscribed: 'we_miss_you' } });
    expect(await stopped()).toEqual(['we_miss_you']);
    expect(await page({ token, action: 'resubscribe' })).toEqual({ status: 200, body: { resubscribed: 'we_miss_you' } });
    expect(await stopped()).toEqual([]);
    // Desfazer with a forged token or an unknown action does nothing.
    await page({ token, action: 'unsubscribe' });
    const [user, , mac] = String(token).split('.');
    expect(await page({ token: `${user}.certificate_available.${mac}`, action: 'resubscribe' })).toEqual({ status: 400, body: { error: 'Link inválido' } });
    expect(await page({ token, action: 'delete' })).toEqual({ status: 400, body: { error: 'Link inválido' } });
    expect(await stopped()).toEqual(['we_miss_you']);
    expect((await backend.anon().rpc('resubscribe_email', { p_token: token })).error).not.toBeNull();
    expect(await stopped()).toEqual(['we_miss_you']);
    await page({ token, action: 'resubscribe' });

    // A mail app's one-click (RFC 8058): a POST to the header's address with its body stops at once; without the body it does not.
    const oneClick = (body: string) =>
      fetch(`${backend.url}/functions/v1/email-unsubscribe?token=${token}`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body });
    expect((await oneClick('')).status).toBe(400);
    expect(await stopped()).toEqual([]);
    expect((await oneClick('List-Unsubscribe=One-Click')).status).toBe(200);
    expect(await stopped()).toEqual(['we_miss_you']);
  });

  it("a student manages their own switches only", async () => {
    const aluna = await backend.signIn(EMAIL.aluna);
    expect((await aluna.from('email_unsubscribes').insert({ user_id: USER.aluna, kind: 'we_miss_you' })).error).toBeNull();
    expect((await aluna.from('email_unsubscribes').insert({ user_id: USER.aluno, kind: 'we_miss_you' })).error).not.toBeNull();
    expect((await aluna.from('email_unsubscribes').insert({ user_id: USER.aluna, kind: 'access_granted' })).error).not.toBeNull();
    expect((await aluna.from('email_unsubscribes').select('user_id, kind')).data).toEqual([{ user_id: USER.aluna, kind: 'we_miss_you' }]);
    await aluna.from('email_unsubscribes').delete().eq('user_id', USER.aluno).eq('kind', 'new_enrollment');
    expect(await sql('select kind from public.email_unsubscribes where user_id = $1 order by kind', [USER.aluno])).toEqual([{ kind: 'certificate_available' }, { kind: 'new_enrollment' }]);
  });

  // Issue 46, item 1: the second save failed ('record "new" has no field "created_at"') and the school's
  // choices stayed as first saved. Through the screen's own calls, as the school's admin.
  it('Configurações → E-mails saves, changes and saves again; the database keeps the last save', async () => {
    const admin = await backend.signIn(EMAIL.adminDemo);
    const row = () => sql('select disabled_kinds, sender_name, reply_to from public.school_email_settings where school_id = $1', [SCHOOL.demo]);
    await saveSchoolEmailSettings(admin, SCHOOL.demo, { disabled_kinds: ['content_released'], sender_name: 'Escola Demo', reply_to: null });
    expect(await row()).toEqual([{ disabled_kinds: ['content_released'], sender_name: 'Escola Demo', reply_to: null }]);
    await saveSchoolEmailSettings(admin, SCHOOL.demo, { disabled_kinds: ['we_miss_you', 'certificate_available'], sender_name: 'Equipe da Escola Demo', reply_to: 'ola@escola-demo.com.br' });
    expect(await row()).toEqual([{ disabled_kinds: ['we_miss_you', 'certificate_available'], sender_name: 'Equipe da Escola Demo', reply_to: 'ola@escola-demo.com.br' }]);
    await saveSchoolEmailSettings(admin, SCHOOL.demo, { disabled_kinds: [], sender_name: null, reply_to: null });
    expect(await fetchSchoolEmailSettings(admin, SCHOOL.demo)).toEqual({ disabled_kinds: [], sender_name: null, reply_to: null });
    expect(await row()).toEqual([{ disabled_kinds: [], sender_name: null, reply_to: null }]);
  });

  it("Settings' preview and SMTP status: the school's staff only", async () => {
    const call = async (email: string, body: object) => {
      const client = await backend.signIn(email);
      const { data } = await client.auth.getSession();
      const res = await fetch(`${backend.url}/functions/v1/email-preview`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', apikey: ANON_KEY, Authorization: `Bearer ${data.session!.access_token}` },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as { smtp_configured?: boolean; preview?: { subject: string; html: string } } };
    };
    expect(await call(EMAIL.adminDemo, { school_id: SCHOOL.demo })).toEqual({ status: 200, body: { smtp_configured: true } });
    const preview = await call(EMAIL.adminDemo, { school_id: SCHOOL.demo, kind: 'we_miss_you' });
    expect(preview.body.preview?.subject).toBe('Sentimos sua falta, Maria');
    expect(preview.body.preview?.html).toContain('Descadastrar');
    expect((await call(EMAIL.adminDemo, { school_id: SCHOOL.demo, kind: 'newsletter' })).status).toBe(400);
    expect((await call(EMAIL.adminRival, { school_id: SCHOOL.demo, kind: 'we_miss_you' })).status).toBe(403);
    expect((await call(EMAIL.aluno, { school_id: SCHOOL.demo })).status).toBe(403);
  });
});

// Issue 19: account squatting and the skippable forced password change, attacked from outside.
//
// Squatting: an attacker signs up the buyer's address with their own password before the school's
// sales system (student-webhook), a staff import (admin-create-student + a REST enrollment) or the
// enrollment dialog finds that account by e-mail. The database keeps whatever is granted to an
// unconfirmed account PENDING (no access), refuses it roles, and when the real owner opens a link from
// their mailbox, throws the squatter's password away and makes the owner choose one.
//
// The forced password change: only a new password clears must_change_password; until then the account
// reads nothing but its own profile (tables, storage, definer RPCs, edge functions).
//
// Accounts of a squatter are made with the admin API (`email_confirm: false`): exactly what a sign-up
// leaves in auth.users when e-mail confirmations are on.
import { describe, expect, it } from 'vitest';
import { settled } from '../../../local-supabase/auth/background.ts';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { signToken } from '../auth-helpers.ts';
import { ANON_KEY, useBackend } from '../harness.ts';
import { none, ok, refused } from '../rls/expect.ts';
import { COURSE, EMAIL, LESSON, SCHOOL } from '../rls/seed.ts';
import { inRolledBackTx, runAs } from '../rls/sql.ts';

const DEMO_SECRET = 'whsec_escola_demo_local_0123456789abcdef';
const TENANT_SECRET = 'local-tenant-webhook-secret-troque-em-producao';
const SQUATTER_PASSWORD = 'senhaDoAtacante1';
const EXCEL_PAID = [LESSON.excelVimeo, LESSON.excelUpload, LESSON.excelProcv, LESSON.excelText];

const backend = useBackend();
const service = backend.service();
const admin = backend.signedIn('adminDemo');
const superAdmin = backend.signedIn('super');

const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
const email = (prefix: string) => `${prefix}.${tag()}@exemplo.com.br`;
const client = () => createClient(backend.url, ANON_KEY, { auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } });

/** The attacker's sign-up of someone else's address, in school Demo: unconfirmed, their password. */
async function squat(address: string): Promise<string> {
  const { data, error } = await service.auth.admin.createUser({
    email: address,
    password: SQUATTER_PASSWORD,
    email_confirm: false,
    user_metadata: { name: 'Atacante', school_id: SCHOOL.demo },
  });
  expect(error).toBeNull();
  return data.user!.id;
}

async function signInError(address: string, password: string): Promise<string | null> {
  const { error } = await client().auth.signInWithPassword({ email: address, password });
  return error ? error.message : null;
}

/** What the squatter could do with a token of their account, if the platform ever issued one. */
async function asAccount(userId: string): Promise<SupabaseClient> {
  const token = await signToken({ sub: userId, role: 'authenticated', aud: 'authenticated' });
  return createClient(backend.url, ANON_KEY, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { headers: { Authorization: `Bearer ${token}` } },
  });
}

interface InboxMessage {
  to: string;
  subject: string;
  links: string[];
}

/**
 * The owner of the address opens a link mailed to it (here the recovery link of "Esqueci minha senha",
 * which confirms the address as GoTrue does) and lands signed in.
 */
async function ownerOpensLink(address: string): Promise<SupabaseClient> {
  const res = await fetch(`${backend.url}/auth/v1/recover?redirect_to=${encodeURIComponent('http://localhost:5173/escola-demo')}`, {
    method: 'POST',
    headers: { apikey: ANON_KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: address }),
  });
  expect(res.status).toBe(200);
  await settled(backend.server.ctx); // /recover answers first and writes the e-mail after (issue 19 item 7)
  const mails = (await (await fetch(`${backend.url}/inbox/api/messages?to=${encodeURIComponent(address)}`)).json()) as InboxMessage[];
  const link = mails.flatMap((m) => m.links).find((l) => l.includes('/verify?') && l.includes('type=recovery'));
  expect(link, 'a recovery link in the inbox').toBeTruthy();
  const landing = await fetch(link!, { redirect: 'manual' });
  const fragment = new URLSearchParams(new URL(landing.headers.get('location')!).hash.slice(1));
  const owner = client();
  const { error } = await owner.auth.setSession({ access_token: fragment.get('access_token')!, refresh_token: fragment.get('refresh_token')! });
  expect(error).toBeNull();
  return owner;
}

async function webhook(name: string, body: unknown, secret: string) {
  const res = await fetch(`${backend.url}/functions/v1/${name}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'x-webhook-secret': secret },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** POST a function as the client's user. */
async function callAs(name: string, body: unknown, as: SupabaseClient) {
  const token = (await as.auth.getSession()).data.session!.access_token;
  const res = await fetch(`${backend.url}/functions/v1/${name}`, {
    method: 'POST',
    headers: { apikey: ANON_KEY, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function accountState(userId: string) {
  const [{ data: user }, { data: profile }, { data: enrollments }] = await Promise.all([
    service.auth.admin.getUserById(userId),
    service.from('profiles').select('must_change_password').eq('id', userId).single(),
    service.from('enrollments').select('status').eq('user_id', userId),
  ]);
  return {
    confirmed: !!user.user?.email_confirmed_at,
    mustChangePassword: profile!.must_change_password as boolean,
    enrollments: (enrollments ?? []).map((e) => e.status as string),
  };
}

async function paidContentIds(as: SupabaseClient): Promise<string[]> {
  const { data } = await as.from('lesson_contents').select('lesson_id').in('lesson_id', EXCEL_PAID);
  return (data ?? []).map((r) => r.lesson_id as string).sort();
}

describe('account squatting (issue 19 item 1)', () => {
  it('student-webhook enrolls a squatted address PENDING (202), the squatter gets nothing, and the owner’s link discards the squatter’s password', { timeout: 90_000 }, async () => {
    const victim = email('vitima');
    const squatterId = await squat(victim);
    const buy = { email: victim, name: 'Dona Real', school_id: SCHOOL.demo, course_id: COURSE.excel };

    const r = await webhook('student-webhook', buy, DEMO_SECRET);
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ user_id: squatterId, email: victim, course_id: COURSE.excel, school_id: SCHOOL.demo, temporary_password: null, pending_confirmation: true });
    expect(typeof r.body.enrollment_id).toBe('string');
    expect(typeof r.body.message).toBe('string');
    expect(await accountState(squatterId)).toEqual({ confirmed: false, mustChangePassword: false, enrollments: ['PENDING'] });
    // A repeated delivery changes nothing of that.
    const again = await webhook('student-webhook', buy, DEMO_SECRET);
    expect(again).toMatchObject({ status: 202, body: { enrollment_id: r.body.enrollment_id, pending_confirmation: true } });

    // The squatter cannot sign in, and even a token of that account reads no paid lesson.
    expect(await signInError(victim, SQUATTER_PASSWORD)).toMatch(/not confirmed/i);
    const squatter = await asAccount(squatterId);
    expect(await paidContentIds(squatter)).toEqual([]);
    await none(squatter.from('materials').select('id').eq('course_id', COURSE.excel));
    expect((await squatter.rpc('issue_certificate', { p_course_id: COURSE.excel })).error?.code).toBe('42501');

    // The owner opens the link mailed to the address: confirmed, the squatter's password is gone, the
    // owner must choose one, and the purchase is theirs.
    const owner = await ownerOpensLink(victim);
    expect(await accountState(squatterId)).toEqual({ confirmed: true, mustChangePassword: true, enrollments: ['ACTIVE'] });
    expect(await signInError(victim, SQUATTER_PASSWORD)).toMatch(/invalid login credentials/i);
    const stored = await inRolledBackTx(backend.server.ctx.engine, (tx) => tx.query<{ p: string }>('select encrypted_password as p from auth.users where id = $1', [squatterId]));
    expect(stored.rows[0]!.p).toBe('');
    // Signed in through the link, but nothing until the new password.
    expect(await paidContentIds(owner)).toEqual([]);
    expect((await owner.from('profiles').select('must_change_password').single()).data).toEqual({ must_change_password: true });
    expect((await owner.auth.updateUser({ password: 'senhaDaDona1' })).error).toBeNull();
    expect(await accountState(squatterId)).toEqual({ confirmed: true, mustChangePassword: false, enrollments: ['ACTIVE'] });
    expect(await paidContentIds(owner)).toEqual([...EXCEL_PAID].sort());
    expect(await signInError(victim, 'senhaDaDona1')).toBeNull();
  });

  it('admin-create-student (the CSV import) answers 409 with pending_confirmation; its REST enrollment stays PENDING until the owner confirms', { timeout: 90_000 }, async () => {
    const victim = email('importada');
    const squatterId = await squat(victim);
    const created = await callAs('admin-create-student', { name: 'Aluna Importada', email: victim, school_id: SCHOOL.demo }, admin);
    expect(created.status).toBe(409);
    expect(created.body).toMatchObject({ user_id: squatterId, pending_confirmation: true });
    expect(created.body).not.toHaveProperty('temporary_password');
    // The import then enrolls the user_id it got, asking for ACTIVE.
    const enrolled = await ok(admin.from('enrollments').insert({ user_id: squatterId, course_id: COURSE.excel, status: 'ACTIVE' }).select('status').single());
    expect(enrolled).toEqual({ status: 'PENDING' });
    expect(await paidContentIds(await asAccount(squatterId))).toEqual([]);

    await ownerOpensLink(victim);
    expect(await accountState(squatterId)).toEqual({ confirmed: true, mustChangePassword: true, enrollments: ['ACTIVE'] });
    expect(await signInError(victim, SQUATTER_PASSWORD)).toMatch(/invalid login credentials/i);
  });

  it('the enrollment dialog (staff REST) and even the service role get PENDING for an unconfirmed account; nobody writes PENDING on a confirmed one', { timeout: 60_000 }, async () => {
    const squatterId = await squat(email('dialogo'));
    const row = await ok(admin.from('enrollments').insert({ user_id: squatterId, course_id: COURSE.marketing, status: 'ACTIVE' }).select('id, status').single());
    expect(row.status).toBe('PENDING');
    expect(await ok(admin.from('enrollments').update({ status: 'ACTIVE' }).eq('id', row.id).select('status').single())).toEqual({ status: 'PENDING' });
    expect(await ok(service.from('enrollments').update({ status: 'ACTIVE' }).eq('id', row.id).select('status').single())).toEqual({ status: 'PENDING' });
    expect(await ok(service.from('enrollments').insert({ user_id: squatterId, course_id: COURSE.excel, status: 'ACTIVE' }).select('status').single())).toEqual({ status: 'PENDING' });
    // PENDING means "waiting for the address", never a status to put on a confirmed student.
    await refused(admin.from('enrollments').insert({ user_id: (await service.rpc('find_user_id_by_email', { p_email: EMAIL.aluna })).data as string, course_id: COURSE.marketing, status: 'PENDING' }));
  });

  it('no role for an unconfirmed account: REST, admin-create-school-admin and tenant-webhook refuse the squatted address', { timeout: 90_000 }, async () => {
    const victim = email('dona.escola');
    const squatterId = await squat(victim);
    const { error } = await superAdmin.from('user_roles').insert({ user_id: squatterId, school_id: SCHOOL.demo, role: 'SCHOOL_ADMIN' });
    expect(error?.message).toMatch(/confirm/i);
    const viaFunction = await callAs('admin-create-school-admin', { name: 'Dona', email: victim, school_id: SCHOOL.demo }, superAdmin);
    expect(viaFunction.status).toBe(409);
    const slug = `escola-${tag()}`;
    const viaTenant = await webhook('tenant-webhook', { email: victim, name: 'Dona', company_name: 'Escola X', company_slug: slug }, TENANT_SECRET);
    expect(viaTenant.status).toBe(409);
    expect((await service.from('user_roles').select('role').eq('user_id', squatterId)).data).toEqual([]);
    expect((await service.from('schools').select('id').eq('slug', slug)).data).toEqual([]);
  });

  it('a confirmed existing student keeps today’s behaviour: 201, ACTIVE at once, password untouched', { timeout: 60_000 }, async () => {
    const r = await webhook('student-webhook', { email: EMAIL.aluna, name: 'Mariana', school_id: SCHOOL.demo, course_id: COURSE.marketing }, DEMO_SECRET);
    expect(r).toMatchObject({ status: 201, body: { temporary_password: null, pending_confirmation: false } });
    expect((await service.from('enrollments').select('status').eq('id', r.body.enrollment_id as string).single()).data).toEqual({ status: 'ACTIVE' });
    expect(await signInError(EMAIL.aluna, 'senha123')).toBeNull();
  });
});

/** A confirmed account of school Demo, optionally staff, with the flag set and an ACTIVE Excel enrollment. */
async function flaggedAccount(role?: 'SCHOOL_ADMIN') {
  const address = email(role ? 'equipe' : 'primeiro.acesso');
  const { data, error } = await service.auth.admin.createUser({ email: address, password: 'Inicial@123', email_confirm: true, user_metadata: { name: 'Primeiro Acesso', school_id: SCHOOL.demo } });
  expect(error).toBeNull();
  const id = data.user!.id;
  if (role) await ok(service.from('user_roles').insert({ user_id: id, school_id: SCHOOL.demo, role }));
  else await ok(service.from('enrollments').insert({ user_id: id, course_id: COURSE.excel }));
  await ok(service.from('profiles').update({ must_change_password: true }).eq('id', id));
  return { id, address, signedIn: await backend.signIn(address, 'Inicial@123') };
}

const flag = async (id: string) => (await service.from('profiles').select('must_change_password').eq('id', id).single()).data!.must_change_password as boolean;

describe('the forced password change (issue 19 hardening)', () => {
  it('updateUser({ data }) and a profile update do not clear it; until a new password the account reads only its own profile', { timeout: 90_000 }, async () => {
    const { id, signedIn: me } = await flaggedAccount();
    expect((await me.auth.updateUser({ data: { must_change_password: false } })).error).toBeNull();
    await none(me.from('profiles').update({ must_change_password: false }).eq('id', id).select('id'));
    expect(await flag(id)).toBe(true);

    // Own profile (with its school) and nothing else.
    const profile = await ok(me.from('profiles').select('id, must_change_password, school:schools!profiles_school_id_fkey(slug)').single());
    expect(profile).toEqual({ id, must_change_password: true, school: { slug: 'escola-demo' } });
    for (const table of ['courses', 'modules', 'lessons', 'lesson_contents', 'materials', 'enrollments', 'progress', 'lesson_comments', 'announcements', 'certificates', 'payments'] as const) {
      await none(me.from(table).select('*'));
    }
    expect((await ok(me.rpc('student_catalog', { p_school_id: SCHOOL.demo })) as unknown[]).length).toBe(0);
    expect((await me.rpc('issue_certificate', { p_course_id: COURSE.excel })).error?.code).toBe('42501');
    await refused(me.from('progress').insert({ user_id: id, lesson_id: LESSON.excelProcv, last_position_sec: 10 }));
    await none(me.from('profiles').update({ name: 'Outro Nome' }).eq('id', id).select('id'));
    await refused(me.storage.from('avatars').upload(`${id}/avatar.png`, new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], { type: 'image/png' })));
    expect((await callAs('create-asaas-charge', { course_id: COURSE.marketing }, me)).status).toBe(403);

    // The new password clears it (the server does), and access is back.
    expect((await me.auth.updateUser({ password: 'MinhaSenha#1' })).error).toBeNull();
    expect(await flag(id)).toBe(false);
    expect(await paidContentIds(me)).toEqual([...EXCEL_PAID].sort());
    expect((await ok(me.rpc('student_catalog', { p_school_id: SCHOOL.demo })) as unknown[]).length).toBeGreaterThan(0);
    await ok(me.storage.from('avatars').upload(`${id}/avatar.png`, new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], { type: 'image/png' })));
  });

  it('staff with the flag: no school data, no definer RPC, no admin function, until the new password', { timeout: 90_000 }, async () => {
    const { id, signedIn: staff } = await flaggedAccount('SCHOOL_ADMIN');
    expect((await ok(staff.from('user_roles').select('role').eq('user_id', id))) as unknown[]).toEqual([{ role: 'SCHOOL_ADMIN' }]);
    await none(staff.from('integration_settings').select('id'));
    await none(staff.from('courses').select('id'));
    await none(staff.from('profiles').select('id').neq('id', id));
    for (const [fn, args] of [
      ['admin_dashboard_counts', { p_school_id: SCHOOL.demo }],
      ['admin_report_summary', { p_school_id: SCHOOL.demo }],
      ['admin_report_students', { p_school_id: SCHOOL.demo }],
      ['reorder_course_content', { p_course_id: COURSE.excel, p_modules: [] }],
      ['reveal_school_webhook_secret', { p_school_id: SCHOOL.demo }],
      ['rotate_school_webhook_secret', { p_school_id: SCHOOL.demo }],
      ['create_integration', { p_provider: 'asaas', p_environment: 'sandbox', p_api_key: 'chave', p_school_id: SCHOOL.demo }],
      ['set_integration_webhook_token', { p_integration_id: '00000000-0000-4000-8000-000000000000', p_token: 'x'.repeat(32) }],
      ['set_system_config', { p_key: 'X', p_value: 'y' }],
    ] as const) {
      const { error } = await staff.rpc(fn, args);
      expect(error?.code, fn).toBe('42501');
    }
    expect((await ok(staff.rpc('admin_list_students', { p_school_id: SCHOOL.demo })) as unknown[]).length).toBe(0);
    await none(staff.storage.from('school-banners').list(SCHOOL.demo));
    const before = (await service.auth.admin.listUsers({ perPage: 1000 })).data.users.length;
    expect((await callAs('admin-create-student', { name: 'X', email: email('nao.criado') }, staff)).status).toBe(403);
    expect((await service.auth.admin.listUsers({ perPage: 1000 })).data.users.length).toBe(before);

    expect((await staff.auth.updateUser({ password: 'SenhaDaEquipe#1' })).error).toBeNull();
    expect((await ok(staff.rpc('admin_dashboard_counts', { p_school_id: SCHOOL.demo })) as unknown[]).length).toBe(1);
    expect(((await ok(staff.from('courses').select('id'))) as unknown[]).length).toBeGreaterThan(0);
  });

  it('admin-reset-password leaves the flag on after the new password; only the owner’s own change clears it', { timeout: 60_000 }, async () => {
    const address = email('redefinida');
    const created = await callAs('admin-create-student', { name: 'Redefinida', email: address }, admin);
    const id = created.body.user_id as string;
    await ok(service.from('profiles').update({ must_change_password: false }).eq('id', id).select('id'));
    expect((await callAs('admin-reset-password', { user_id: id, new_password: 'Temporaria#1' }, admin)).status).toBe(200);
    expect(await flag(id)).toBe(true);
    const { data } = await service.auth.admin.getUserById(id);
    expect(data.user!.user_metadata.must_change_password).toBe(true);
    const me = await backend.signIn(address, 'Temporaria#1');
    expect(await flag(id)).toBe(true);
    expect((await me.auth.updateUser({ password: 'Escolhida#1' })).error).toBeNull();
    expect(await flag(id)).toBe(false);
  });

  it('clears only when the password hash really changes (not on other updates of the user)', async () => {
    const out = await inRolledBackTx(backend.server.ctx.engine, async (tx) => {
      const id = (await tx.query<{ id: string }>(`select id from auth.users where email = $1`, [EMAIL.novo])).rows[0]!.id;
      const read = async () => (await tx.query<{ f: boolean }>('select must_change_password as f from public.profiles where id = $1', [id])).rows[0]!.f;
      await tx.query(`update auth.users set last_sign_in_at = now(), raw_user_meta_data = raw_user_meta_data || '{"must_change_password": false}' where id = $1`, [id]);
      await tx.query(`update auth.users set encrypted_password = encrypted_password where id = $1`, [id]);
      const untouched = await read();
      await tx.query(`update auth.users set encrypted_password = '' where id = $1`, [id]);
      const blanked = await read();
      await tx.query(`update auth.users set encrypted_password = 'outro-hash' where id = $1`, [id]);
      return { untouched, blanked, changed: await read() };
    });
    expect(out).toEqual({ untouched: true, blanked: true, changed: false });
  });

  it('every security definer RPC a signed-in account can call refuses it, and so does the lesson-file check', async () => {
    const db = backend.server.ctx.engine;
    const unguarded = await inRolledBackTx(db, (tx) =>
      tx.query<{ fn: string }>(
        `select p.oid::regprocedure::text as fn from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where n.nspname = 'public' and p.prosecdef and has_function_privilege('authenticated', p.oid, 'execute')
            and p.proname <> 'verify_certificate' and p.prosrc not like '%refuse_while_password_change_pending%'
          order by 1`,
      ),
    );
    // verify_certificate answers anon the same: a public check of a code, nothing of the caller's.
    expect(unguarded.rows).toEqual([]);
    const { id } = await flaggedAccount();
    const lessonVideo = `${SCHOOL.demo}/${COURSE.excel}/${LESSON.excelUpload}/formulas-basicas.mp4`;
    const canRead = (uid: string) => runAs<{ ok: boolean }>(db, uid, 'select private.can_read_course_object($1) as ok', [lessonVideo]);
    expect((await canRead(id)).rows).toEqual([{ ok: false }]);
    await ok(service.from('profiles').update({ must_change_password: false }).eq('id', id).select('id'));
    expect((await canRead(id)).rows).toEqual([{ ok: true }]);
  });

  it('every table the API can reach, and storage, has the restrictive must-change-password policy', async () => {
    const missing = await inRolledBackTx(backend.server.ctx.engine, (tx) =>
      tx.query<{ t: string }>(
        `select n.nspname || '.' || c.relname as t
           from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where ((n.nspname = 'public' and c.relkind in ('r', 'p')
                  and has_table_privilege('authenticated', c.oid, 'select,insert,update,delete'))
                 or (n.nspname = 'storage' and c.relname = 'objects'))
            and not exists (select 1 from pg_policies p
                             where p.schemaname = n.nspname and p.tablename = c.relname and p.permissive = 'RESTRICTIVE'
                               and p.cmd in ('SELECT', 'ALL') and p.qual like '%password_change_pending%')
          order by 1`,
      ),
    );
    expect(missing.rows).toEqual([]);
  });
});

// Issue 10, the admin edge functions in real Deno: each is called as anon, a student, staff of the
// other school, staff of the school and the super admin; exactly the allowed calls change anything.
import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { createClient } from '@supabase/supabase-js';
import { ANON_KEY, useBackend } from '../harness.ts';
import { EMAIL, SCHOOL, USER } from '../rls/seed.ts';

const backend = useBackend();
const service = backend.service();
let clients: Record<'admin' | 'instrutor' | 'rival' | 'aluno' | 'super', SupabaseClient>;

beforeAll(async () => {
  const [admin, instrutor, rival, aluno, sup] = await Promise.all([
    backend.signIn(EMAIL.adminDemo),
    backend.signIn(EMAIL.instrutor),
    backend.signIn(EMAIL.adminRival),
    backend.signIn(EMAIL.aluno),
    backend.signIn(EMAIL.super),
  ]);
  clients = { admin, instrutor, rival, aluno, super: sup };
}, 120_000);

/** POST a function as the client's user (or anon with no client); status and JSON body. */
async function call(name: string, body: unknown, client?: SupabaseClient) {
  const token = client ? (await client.auth.getSession()).data.session!.access_token : ANON_KEY;
  const res = await fetch(`${backend.url}/functions/v1/${name}`, {
    method: 'POST',
    headers: { apikey: ANON_KEY, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

const unique = (p: string) => `${p}.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@exemplo.com.br`;

async function userCount(): Promise<number> {
  const { data } = await service.auth.admin.listUsers({ perPage: 1000 });
  return data.users.length;
}

describe('admin-create-student', () => {
  it('is refused to anon, students and staff of another school, and creates nothing', { timeout: 90_000 }, async () => {
    const before = await userCount();
    const email = unique('recusado');
    expect((await call('admin-create-student', { name: 'X', email })).status).toBe(401);
    expect((await call('admin-create-student', { name: 'X', email }, clients.aluno)).status).toBe(403);
    const rival = await call('admin-create-student', { name: 'X', email, school_id: SCHOOL.demo }, clients.rival);
    expect(rival.status).toBe(403);
    expect(typeof rival.body.error).toBe('string');
    expect(await userCount()).toBe(before);
  });

  it('staff create a student of their school; the CPF digits are the password; must change it', { timeout: 60_000 }, async () => {
    const email = unique('novo.aluno');
    const r = await call('admin-create-student', { name: 'Beatriz Souza', email, cpf: '529.982.247-25', phone: '(11) 98888-7777', address: 'Rua A, 1' }, clients.instrutor);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ email, school_id: SCHOOL.demo, temporary_password: '52998224725' });
    const profile = (await service.from('profiles').select('*').eq('id', r.body.user_id as string).single()).data!;
    expect(profile).toMatchObject({ school_id: SCHOOL.demo, name: 'Beatriz Souza', cpf: '529.982.247-25', email, must_change_password: true, is_active: true });
    const student = createClient(backend.url, ANON_KEY, { auth: { persistSession: false } });
    const signIn = await student.auth.signInWithPassword({ email, password: '52998224725' });
    expect(signIn.error).toBeNull();
  });

  it('without a CPF the default password from the environment is used', { timeout: 60_000 }, async () => {
    const r = await call('admin-create-student', { name: 'Sem CPF', email: unique('sem.cpf') }, clients.admin);
    expect(r.status).toBe(201);
    expect(r.body.temporary_password).toBe('Aluno@2026');
    expect(r.body.password_rule).toBe('default');
  });

  it('a duplicate e-mail gets a pt-BR error and creates nothing; an invalid field is named', { timeout: 60_000 }, async () => {
    const before = await userCount();
    const dup = await call('admin-create-student', { name: 'Duplicado', email: EMAIL.aluna }, clients.admin);
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('Já existe uma conta com este e-mail');
    const bad = await call('admin-create-student', { name: 'CPF ruim', email: unique('cpf.ruim'), cpf: '111.111.111-11' }, clients.admin);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'CPF inválido', field: 'cpf' });
    expect((await call('admin-create-student', { email: unique('sem.nome') }, clients.admin)).body).toMatchObject({ field: 'name' });
    expect(await userCount()).toBe(before);
  });

  it('leaves no orphan auth user when the profile step fails', { timeout: 60_000 }, async () => {
    const before = await userCount();
    const email = unique('orfao');
    // The profile step fails (a school that does not exist breaks the profile's foreign key) after
    // the auth user was created: the function must delete that user again.
    const ghost = await call('admin-create-student', { name: 'Fantasma', email, school_id: '5c000000-0000-4000-8000-0000000000ff' }, clients.super);
    expect(ghost.status).toBeGreaterThanOrEqual(400);
    expect(await userCount()).toBe(before);
    expect((await service.rpc('find_user_id_by_email', { p_email: email })).data).toBeNull();
  });

  it('answers CORS preflights itself', async () => {
    const res = await fetch(`${backend.url}/functions/v1/admin-create-student`, { method: 'OPTIONS', headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('admin-reset-password', () => {
  it('is refused to anon, students, other-school staff, and for staff accounts; nothing changes', { timeout: 60_000 }, async () => {
    expect((await call('admin-reset-password', { user_id: USER.aluna })).status).toBe(401);
    expect((await call('admin-reset-password', { user_id: USER.aluna }, clients.aluno)).status).toBe(403);
    expect((await call('admin-reset-password', { user_id: USER.aluna }, clients.rival)).status).toBe(403);
    expect((await call('admin-reset-password', { user_id: USER.instrutor }, clients.admin)).status).toBe(403);
    const still = createClient(backend.url, ANON_KEY, { auth: { persistSession: false } });
    expect((await still.auth.signInWithPassword({ email: EMAIL.aluna, password: 'senha123' })).error).toBeNull();
  });

  it('staff reset a student: new temporary password, forced change, other sessions end', { timeout: 60_000 }, async () => {
    const email = unique('reset');
    const created = await call('admin-create-student', { name: 'Reset', email }, clients.admin);
    const userId = created.body.user_id as string;
    const student = createClient(backend.url, ANON_KEY, { auth: { persistSession: false, autoRefreshToken: false } });
    const session = (await student.auth.signInWithPassword({ email, password: 'Aluno@2026' })).data.session!;
    const short = await call('admin-reset-password', { user_id: userId, new_password: '123' }, clients.admin);
    expect(short).toMatchObject({ status: 400, body: { error: 'A senha deve ter no mínimo 6 caracteres', field: 'new_password' } });
    const r = await call('admin-reset-password', { user_id: userId, new_password: 'Nova#123' }, clients.admin);
    expect(r).toMatchObject({ status: 200, body: { user_id: userId, temporary_password: 'Nova#123' } });
    expect((await service.from('profiles').select('must_change_password').eq('id', userId).single()).data!.must_change_password).toBe(true);
    const refreshed = await student.auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refreshed.error).not.toBeNull();
    expect((await student.auth.signInWithPassword({ email, password: 'Nova#123' })).error).toBeNull();
  });

  it('the super admin resets a school admin with the admin default', { timeout: 60_000 }, async () => {
    const created = await call('admin-create-school-admin', { name: 'Admin Novo', email: unique('admin.novo'), school_id: SCHOOL.rival }, clients.super);
    expect(created.status).toBe(201);
    const r = await call('admin-reset-password', { user_id: created.body.user_id }, clients.super);
    expect(r).toMatchObject({ status: 200, body: { temporary_password: 'Admin@2026' } });
  });
});

describe('admin-create-school-admin', () => {
  it('only the super admin creates school admins; duplicates create nothing', { timeout: 90_000 }, async () => {
    const before = await userCount();
    const email = unique('cliente');
    const body = { name: 'Carla Cliente', email, school_id: SCHOOL.rival };
    expect((await call('admin-create-school-admin', body)).status).toBe(401);
    expect((await call('admin-create-school-admin', body, clients.aluno)).status).toBe(403);
    expect((await call('admin-create-school-admin', body, clients.admin)).status).toBe(403);
    expect(await userCount()).toBe(before);
    const r = await call('admin-create-school-admin', body, clients.super);
    expect(r.status).toBe(201);
    const roles = (await service.from('user_roles').select('role, school_id').eq('user_id', r.body.user_id as string)).data;
    expect(roles).toEqual([{ role: 'SCHOOL_ADMIN', school_id: SCHOOL.rival }]);
    expect((await call('admin-create-school-admin', body, clients.super)).status).toBe(409);
    expect((await call('admin-create-school-admin', { ...body, email: unique('x'), school_id: '5c000000-0000-4000-8000-0000000000ff' }, clients.super)).body).toMatchObject({ field: 'school_id' });
    expect(await userCount()).toBe(before + 1);
  });
});

// Issue 10, the Students list: server-side search and pages under RLS, and profiles.email that nobody
// writes through the API nor reads beyond what profiles already allow.
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { EMAIL, SCHOOL, USER } from '../rls/seed.ts';
import { fetchStudents } from '../../../src/features/students/api/queries.ts';

const backend = useBackend();
const service = backend.service();
const admin = backend.signedIn('adminDemo');
const rival = backend.signedIn('adminRival');
const aluno = backend.signedIn('aluno');

describe('admin_list_students', () => {
  it('lists only the accounts without a role of the school, newest first, with the total', async () => {
    const profiles = (await service.from('profiles').select('id, created_at').eq('school_id', SCHOOL.demo)).data!;
    const staff = new Set((await service.from('user_roles').select('user_id')).data!.map((r) => r.user_id));
    const expected = profiles.filter((p) => !staff.has(p.id)).sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.id < b.id ? -1 : 1));
    const page = await fetchStudents(admin, SCHOOL.demo, '', 0, 100);
    expect(page.total).toBe(expected.length);
    expect(page.rows.map((r) => r.id)).toEqual(expected.map((p) => p.id));
    expect(page.rows.some((r) => r.id === USER.adminDemo || r.id === USER.instrutor)).toBe(false);
  });

  it('pages with limit and offset', async () => {
    const all = await fetchStudents(admin, SCHOOL.demo, '', 0, 100);
    const first = await fetchStudents(admin, SCHOOL.demo, '', 0, 2);
    const second = await fetchStudents(admin, SCHOOL.demo, '', 1, 2);
    expect(first.total).toBe(all.total);
    expect([...first.rows, ...second.rows].map((r) => r.id)).toEqual(all.rows.slice(0, 4).map((r) => r.id));
  });

  it('searches by name, e-mail or CPF (with or without punctuation)', async () => {
    const aluno = (await service.from('profiles').select('name, email, cpf').eq('id', USER.aluno).single()).data!;
    for (const term of [aluno.name.split(' ')[0]!.toUpperCase(), aluno.email!, aluno.cpf!, aluno.cpf!.replace(/\D/g, '').slice(0, 6)]) {
      const r = await fetchStudents(admin, SCHOOL.demo, term, 0, 50);
      expect(r.rows.map((x) => x.id), term).toContain(USER.aluno);
    }
    expect((await fetchStudents(admin, SCHOOL.demo, 'zzz-ninguem-zzz', 0, 50)).total).toBe(0);
  });

  it('gives nothing of another school and nothing to students', async () => {
    expect(await fetchStudents(rival, SCHOOL.demo, '', 0, 50)).toEqual({ rows: [], total: 0 });
    const own = await fetchStudents(aluno, SCHOOL.demo, '', 0, 50);
    expect(own.rows.every((r) => r.id === USER.aluno)).toBe(true);
  });
});

describe('profiles.email', () => {
  it('follows auth.users and cannot be changed through the API', async () => {
    expect((await service.from('profiles').select('email').eq('id', USER.aluno).single()).data!.email).toBe(EMAIL.aluno);
    const own = await aluno.from('profiles').update({ email: 'outro@exemplo.com' } as never).eq('id', USER.aluno).select('email');
    expect(own.error).not.toBeNull();
    const staff = await admin.from('profiles').update({ email: 'outro@exemplo.com' } as never).eq('id', USER.aluna).select('email');
    expect(staff.error).not.toBeNull();
    expect((await service.from('profiles').select('email').eq('id', USER.aluna).single()).data!.email).toBe(EMAIL.aluna);
    await service.auth.admin.updateUserById(USER.aluna, { email: 'aluna.nova@escola-demo.com.br' });
    expect((await service.from('profiles').select('email').eq('id', USER.aluna).single()).data!.email).toBe('aluna.nova@escola-demo.com.br');
  });
});

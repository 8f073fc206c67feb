// Issue 46, item 10: the month's ranking (school_ranking) names classmates by first name and initial
// ("Mariana L."), reduced in the database, so no full name reaches a student over the API; lists a
// student only once they did something this month; and tells each student once that they appear, until
// they dismiss it (their own ranking_notices row, which no one else can write).
import { describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { useBackend } from '../harness.ts';
import { EMAIL } from '../rls/seed.ts';

const PASSWORD = 'senha-ranking-123';
const backend = useBackend();
const service = backend.service();

async function must<T>(p: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(JSON.stringify(error));
  return data;
}
const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

interface Account {
  id: string;
  client: SupabaseClient;
}
type Ranking = {
  enabled: boolean;
  top: { position: number; user_id: string; name: string; points: number }[];
  me: null | { position: number | null; points: number; notice: boolean };
};

/** A school with the ranking on, a SCHOOL_ADMIN, a PUBLISHED course of 3 lessons, and students on demand. */
async function makeSchool() {
  const t = tag();
  const school = (await must(service.from('schools').insert({ slug: `ranking-${t}`, name: `Escola Ranking ${t}` }).select('id').single())) as { id: string };
  await must(service.from('school_discussion_settings').insert({ school_id: school.id, ranking_enabled: true }).select('school_id'));
  const account = async (name: string): Promise<Account> => {
    const email = `ranking.${tag()}@exemplo.com.br`;
    const created = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { name, school_id: school.id } });
    if (created.error) throw created.error;
    return { id: created.data.user!.id, client: await backend.signIn(email, PASSWORD) };
  };
  const admin = await account('Ana Administradora Pereira');
  await must(service.from('user_roles').insert({ user_id: admin.id, school_id: school.id, role: 'SCHOOL_ADMIN' }).select('id'));
  const course = (await must(service.from('courses').insert({ school_id: school.id, title: `Curso ${t}`, slug: `curso-${t}`, status: 'PUBLISHED' }).select('id').single())) as { id: string };
  const mod = (await must(service.from('modules').insert({ course_id: course.id, title: 'Módulo 1' }).select('id').single())) as { id: string };
  const lessons: string[] = [];
  for (let i = 0; i < 3; i++) {
    const l = (await must(service.from('lessons').insert({ module_id: mod.id, course_id: course.id, title: `Aula ${i + 1}`, order_index: i }).select('id').single())) as { id: string };
    lessons.push(l.id);
  }
  const student = async (name: string) => {
    const a = await account(name);
    await must(service.from('enrollments').insert({ user_id: a.id, course_id: course.id, status: 'ACTIVE' }).select('id'));
    return a;
  };
  const complete = async (a: Account, lesson: string, at = new Date()) =>
    must(a.client.from('progress').upsert({ user_id: a.id, lesson_id: lesson, completed_at: at.toISOString() }, { onConflict: 'user_id,lesson_id' }).select('id'));
  return { id: school.id, admin, lessons, student, complete };
}
const ranking = async (c: SupabaseClient, schoolId?: string) => (await must(c.rpc('school_ranking', schoolId ? { p_school_id: schoolId } : {}))) as Ranking;

describe("the ranking's names", () => {
  it('are first name and initial, reduced in the database: no classmate receives a full name, nor staff through it', async () => {
    const s = await makeSchool();
    const mariana = await s.student('Mariana Souza Lima');
    const jose = await s.student('  José   da Conceição  ');
    const bia = await s.student('Bia');
    await s.complete(mariana, s.lessons[0]!);
    await s.complete(mariana, s.lessons[1]!);
    await s.complete(jose, s.lessons[0]!);
    await s.complete(bia, s.lessons[0]!);

    for (const reader of [bia.client, mariana.client, s.admin.client]) {
      const got = await ranking(reader, s.id);
      expect(got.top.map((r) => [r.name, r.points])).toEqual([['Mariana L.', 20], ['Bia', 10], ['José C.', 10]]);
      const everything = JSON.stringify(got);
      for (const part of ['Souza', 'Lima', 'Conceição', ' da ']) expect(everything).not.toContain(part);
    }
  });

  it('list a student only once they did something this month', async () => {
    const s = await makeSchool();
    const caio = await s.student('Caio Ribeiro');
    const eva = await s.student('Eva Martins');
    // Caio studied last month only; Eva nothing yet.
    await must(service.from('progress').insert({ user_id: caio.id, lesson_id: s.lessons[0], completed_at: new Date(Date.now() - 40 * 24 * 3600_000).toISOString() }).select('id'));
    expect((await ranking(eva.client)).top).toEqual([]);
    expect((await ranking(caio.client)).me).toEqual({ position: null, points: 0, lessons: 0, quizzes: 0, answers: 0, notice: false });

    await s.complete(caio, s.lessons[1]!);
    expect((await ranking(eva.client)).top.map((r) => r.name)).toEqual(['Caio R.']);
  });
});

describe('the notice that a student appears', () => {
  it('is on until the student dismisses it, which writes their own row only', async () => {
    const s = await makeSchool();
    const mariana = await s.student('Mariana Souza');
    const eve = await s.student('Eve Intrusa');
    expect((await ranking(mariana.client)).me).toMatchObject({ position: null, notice: false });
    await s.complete(mariana, s.lessons[0]!);
    expect((await ranking(mariana.client)).me).toMatchObject({ position: 1, notice: true });

    // Another student cannot dismiss it for her (nor read whether she did).
    expect((await eve.client.from('ranking_notices').insert({ user_id: mariana.id }).select('user_id')).error).not.toBeNull();
    expect(await must(service.from('ranking_notices').select('user_id').eq('user_id', mariana.id))).toEqual([]);
    expect((await ranking(mariana.client)).me).toMatchObject({ notice: true });

    // She dismisses it: gone for good, her position unchanged.
    await must(mariana.client.from('ranking_notices').upsert({ user_id: mariana.id }, { onConflict: 'user_id', ignoreDuplicates: true }).select('user_id'));
    expect((await ranking(mariana.client)).me).toMatchObject({ position: 1, notice: false });
    expect(await must(eve.client.from('ranking_notices').select('user_id'))).toEqual([]);
    // Eve, once she appears, has her own.
    await s.complete(eve, s.lessons[0]!);
    expect((await ranking(eve.client)).me).toMatchObject({ position: 1, notice: true });
  });

  it('is not given to an opted-out student, nor to staff', async () => {
    const s = await makeSchool();
    const davi = await s.student('Davi Oculto');
    await must(davi.client.from('ranking_opt_outs').insert({ user_id: davi.id }).select('user_id'));
    await s.complete(davi, s.lessons[0]!);
    expect(await ranking(davi.client)).toMatchObject({ opted_out: true, me: null, top: [] });
    expect((await ranking(s.admin.client, s.id)).me).toBeNull();
    // Another school's student reads nothing of it.
    const rival = await backend.signIn(EMAIL.alunoRival);
    expect((await rival.rpc('school_ranking', { p_school_id: s.id })).error).toMatchObject({ code: '42501' });
  });
});

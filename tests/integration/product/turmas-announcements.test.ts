// Issue 40, following a turma (docs/turmas.md): "Comunicado para a turma" reaches only that turma's
// students (row-level security on announcements), and with the school's "Ranking por turma" a student's
// ranking holds only the students of their turmas. Each attack is checked by what the student reads,
// beside a control that reads what it should.
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { COURSE, LESSON, SCHOOL, TURMA, USER } from '../rls/seed.ts';

const PASSWORD = 'senha-turma-123';
/** A seeded student with points this month (a marked answer), in no turma. */
const EDUARDO = 'a0000000-0000-4000-8000-000000000034';
const backend = useBackend();
const service = backend.service();
const staff = backend.signedIn('adminDemo');
const rivalStaff = backend.signedIn('adminRival');
const aluno = backend.signedIn('aluno');
const aluna = backend.signedIn('aluna');

async function must<T>(p: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(JSON.stringify(error));
  return data;
}
const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const spDate = (days: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() + days * 86_400_000));

let other: { id: string; client: Awaited<ReturnType<typeof backend.signIn>> };
let otherTurma: string;
const A = { current: '', other: '', school: '' };

beforeAll(async () => {
  // Another turma of Excel, started last week, with a student of its own.
  otherTurma = ((await must(service.from('turmas').insert({ course_id: COURSE.excel, name: 'Turma paralela', starts_on: spDate(-7) }).select('id').single())) as { id: string }).id;
  const email = `turma.paralela.${tag()}@exemplo.com.br`;
  const created = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { name: 'Zeca Paralelo', school_id: SCHOOL.demo } });
  if (created.error) throw created.error;
  const id = created.data.user!.id;
  await must(service.from('enrollments').insert({ user_id: id, course_id: COURSE.excel, turma_id: otherTurma }).select('id'));
  other = { id, client: await backend.signIn(email, PASSWORD) };

  const post = async (title: string, turma: string | null) =>
    ((await must(staff.from('announcements').insert({ school_id: SCHOOL.demo, title, body: `<p>${title}</p>`, turma_id: turma }).select('id, course_id').single())) as { id: string; course_id: string | null });
  const current = await post('Aula ao vivo da turma atual', TURMA.excelCurrent);
  // The turma's course comes with it.
  expect(current.course_id).toBe(COURSE.excel);
  A.current = current.id;
  A.other = (await post('Aula ao vivo da turma paralela', otherTurma)).id;
  A.school = (await post('Aviso para toda a escola', null)).id;
}, 60_000);

describe('Comunicado para a turma', () => {
  const ids = async (client: typeof aluno) =>
    ((await must(client.from('announcements').select('id').in('id', [A.current, A.other, A.school]))) as { id: string }[]).map((r) => r.id).sort();

  it("a student of one turma reads nothing of another turma's announcement; each reads their own and the school's", async () => {
    expect(await ids(aluno)).toEqual([A.current, A.school].sort());
    expect(await ids(other.client)).toEqual([A.other, A.school].sort());
    // Asked for by id, with every column: nothing.
    expect(await must(aluno.from('announcements').select('*').eq('id', A.other))).toEqual([]);
    expect(await must(other.client.from('announcements').select('title, body').eq('id', A.current))).toEqual([]);
  });

  it('a student in no turma (or of another course) reads only the school-wide one; staff read them all', async () => {
    expect(await ids(aluna)).toEqual([A.school]);
    expect(await ids(staff)).toEqual([A.current, A.other, A.school].sort());
  });

  it('moved to the other turma, the student reads its announcement and no longer the old one', async () => {
    const enrollment = ((await must(service.from('enrollments').select('id').eq('user_id', other.id).eq('course_id', COURSE.excel).single())) as { id: string }).id;
    await must(staff.rpc('move_enrollment_to_turma', { p_enrollment_id: enrollment, p_turma_id: TURMA.excelCurrent }));
    expect(await ids(other.client)).toEqual([A.current, A.school].sort());
    await must(staff.rpc('move_enrollment_to_turma', { p_enrollment_id: enrollment, p_turma_id: otherTurma }));
    expect(await ids(other.client)).toEqual([A.other, A.school].sort());
  });

  it("another school's staff cannot post to this school's turma, nor read or change its announcements", async () => {
    const refused = await rivalStaff.from('announcements').insert({ school_id: SCHOOL.rival, title: 'Intrusa', body: '<p>x</p>', turma_id: TURMA.excelCurrent });
    expect(refused.error).not.toBeNull();
    expect(await must(service.from('announcements').select('id').eq('title', 'Intrusa'))).toEqual([]);
    expect(await must(rivalStaff.from('announcements').select('id').eq('id', A.current))).toEqual([]);
    expect(await must(rivalStaff.from('announcements').update({ title: 'Trocado' }).eq('id', A.current).select('id'))).toEqual([]);
    expect(((await must(service.from('announcements').select('title').eq('id', A.current).single())) as { title: string }).title).toBe('Aula ao vivo da turma atual');
    // Control: the school's staff retitle it.
    expect(await must(staff.from('announcements').update({ title: 'Aula ao vivo (nova data)' }).eq('id', A.current).select('title'))).toEqual([{ title: 'Aula ao vivo (nova data)' }]);
  });
});

describe('Ranking por turma', () => {
  type Ranking = { enabled: boolean; by_turma: boolean; top: { user_id: string }[]; me: { points: number } | null };
  const ranking = async (client: typeof aluno) => (await must(client.rpc('school_ranking', {}))) as Ranking;
  const people = (r: Ranking) => r.top.map((t) => t.user_id);

  beforeAll(async () => {
    // Points this month: the demo student, the other turma's student and Mariana (no turma) each complete a lesson.
    await must(service.from('progress').upsert({ user_id: USER.aluno, lesson_id: LESSON.excelProcv, completed_at: new Date().toISOString() }, { onConflict: 'user_id,lesson_id' }).select('id'));
    await must(service.from('progress').insert({ user_id: other.id, lesson_id: LESSON.excelVimeo, completed_at: new Date().toISOString() }).select('id'));
  });

  it('off (the default): the whole school, as before', async () => {
    const r = await ranking(aluno);
    expect(r).toMatchObject({ enabled: true, by_turma: false });
    // Eduardo (seeded, in no turma) has points this month.
    expect(people(r)).toContain(EDUARDO);
    expect(r.me?.points).toBeGreaterThan(0);
  });

  it("on: a student's ranking holds only their turma's students; another turma's are not in it; staff still see the school", async () => {
    await must(staff.from('school_discussion_settings').update({ ranking_by_turma: true }).eq('school_id', SCHOOL.demo).select('school_id'));
    const mine = await ranking(aluno);
    expect(mine.by_turma).toBe(true);
    expect(people(mine)).toContain(USER.aluno);
    expect(people(mine)).not.toContain(other.id);
    expect(people(mine)).not.toContain(EDUARDO);
    // Every one of them is in the demo student's turma.
    const mates = ((await must(service.from('enrollments').select('user_id').eq('turma_id', TURMA.excelCurrent))) as { user_id: string }[]).map((e) => e.user_id);
    expect(people(mine).every((id) => mates.includes(id))).toBe(true);
    const theirs = await ranking(other.client);
    expect(people(theirs)).toEqual([other.id]);
    expect(theirs.me?.points).toBeGreaterThan(0);
    // No turma: nobody to rank against.
    expect(people(await ranking(aluna))).toEqual([]);
    // Staff: the whole school.
    expect(people(await ranking(staff))).toContain(EDUARDO);
  });

  it("another school's staff cannot turn it on or off for this school", async () => {
    expect(await must(rivalStaff.from('school_discussion_settings').update({ ranking_by_turma: false }).eq('school_id', SCHOOL.demo).select('school_id'))).toEqual([]);
    expect(((await must(service.from('school_discussion_settings').select('ranking_by_turma').eq('school_id', SCHOOL.demo).single())) as { ranking_by_turma: boolean }).ranking_by_turma).toBe(true);
  });
});

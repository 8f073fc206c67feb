// Issue 40: "Discussões por turma" (20261128008501, docs/turmas.md). With the school setting on, a student in
// a turma writes into their turma's discussion and reads it with their turma mates and the staff only; a
// student of another turma, or outside any turma, reads nothing of it and cannot reply into it; staff filter
// Comentários by turma. Course-wide comments (staff questions, students outside any turma) read as before.
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { COURSE, LESSON, SCHOOL, TURMA } from '../rls/seed.ts';
import { shop, spDate, tag, must } from './turma-shop.ts';

const backend = useBackend();
const s = shop(backend);
const staff = backend.signedIn('adminDemo');
type Person = Awaited<ReturnType<typeof s.buyer>>;
let mate: Person; // in TURMA.excelCurrent
let writer: Person; // in TURMA.excelCurrent
let stranger: Person; // in another turma of Excel, under way
let outsider: Person; // in Excel, in no turma
let otherTurma: string;

async function enrolled(prefix: string, turmaId: string | null) {
  const b = await s.buyer(prefix);
  await s.insertRow('enrollments', { user_id: b.id, course_id: COURSE.excel, status: 'ACTIVE', turma_id: turmaId });
  return b;
}
const post = (p: Person, comment: string, parentId?: string) =>
  p.client.from('lesson_comments').insert({ user_id: p.id, lesson_id: LESSON.excelVimeo, comment, ...(parentId ? { parent_id: parentId } : {}) }).select('id').single();
const reads = async (p: Person | { client: typeof staff }, id: string) => ((await must(p.client.from('lesson_comments').select('id').eq('id', id))) ?? []).length === 1;
const turmaOf = async (id: string) => ((await must(s.service.from('lesson_comments').select('turma_id').eq('id', id).single())) as { turma_id: string | null }).turma_id;
const byTurma = (on: boolean) => must(staff.from('school_discussion_settings').update({ discussions_by_turma: on }).eq('school_id', SCHOOL.demo).select('school_id'));

beforeAll(async () => {
  otherTurma = await s.insertRow('turmas', { course_id: COURSE.excel, name: `Turma B ${tag()}`, starts_on: spDate(-10) });
  mate = await enrolled('colega', TURMA.excelCurrent);
  writer = await enrolled('autora', TURMA.excelCurrent);
  stranger = await enrolled('outra.turma', otherTurma);
  outsider = await enrolled('sem.turma', null);
  await byTurma(true);
});

describe('Discussões por turma', () => {
  let question = '';
  let staffReply = '';
  it("control: a turma student's question is their turma's; a mate and the staff read it, staff answer in it and filter by turma", async () => {
    question = ((await must(post(writer, 'Como faço o PROCV com duas condições?'))) as { id: string }).id;
    expect(await turmaOf(question)).toBe(TURMA.excelCurrent);
    expect(await reads(mate, question)).toBe(true);
    expect(await reads({ client: staff }, question)).toBe(true);
    staffReply = ((await must(staff.from('lesson_comments').insert({ user_id: (await staff.auth.getUser()).data.user!.id, lesson_id: LESSON.excelVimeo, parent_id: question, comment: 'Use ÍNDICE e CORRESP.' }).select('id').single())) as { id: string }).id;
    expect(await turmaOf(staffReply)).toBe(TURMA.excelCurrent);
    expect(await reads(mate, staffReply)).toBe(true);
    const list = async (turmaId: string) => ((await must(staff.rpc('admin_comments', { p_school_id: SCHOOL.demo, p_turma_id: turmaId }))) as { id: string; turma_name: string | null }[]);
    expect((await list(TURMA.excelCurrent)).map((c) => c.id)).toEqual(expect.arrayContaining([question, staffReply]));
    expect((await list(otherTurma)).map((c) => c.id)).not.toContain(question);
    // A mate replies in the thread: it stays the turma's.
    const reply = ((await must(post(mate, 'Também tive essa dúvida.', question))) as { id: string }).id;
    expect(await turmaOf(reply)).toBe(TURMA.excelCurrent);
  });

  it('attack: a student of another turma, or outside any turma, reads nothing of it and cannot reply into it', async () => {
    for (const p of [stranger, outsider]) {
      expect(await reads(p, question)).toBe(false);
      expect(await reads(p, staffReply)).toBe(false);
      const thread = (await must(p.client.from('lesson_comments').select('id').eq('parent_id', question))) ?? [];
      expect(thread).toEqual([]);
      const intrusion = await post(p, 'Entrando na conversa de outra turma', question);
      expect(intrusion.error?.message).toBe('Esta conversa é de outra turma.');
    }
    expect(await must(s.service.from('lesson_comments').select('id').eq('parent_id', question).in('user_id', [stranger.id, outsider.id]))).toEqual([]);
  });

  it("control: a student outside any turma writes course-wide, read by every turma; a staff question too", async () => {
    const open = ((await must(post(outsider, 'Alguém tem a planilha da aula?'))) as { id: string }).id;
    expect(await turmaOf(open)).toBeNull();
    for (const p of [writer, stranger]) expect(await reads(p, open)).toBe(true);
    // The other turma's student writes into their own turma, which the first turma does not read.
    const theirs = ((await must(post(stranger, 'Nossa turma tem aula extra?'))) as { id: string }).id;
    expect(await turmaOf(theirs)).toBe(otherTurma);
    expect(await reads(writer, theirs)).toBe(false);
    expect(await reads(stranger, theirs)).toBe(true);
  });

  it('off: new comments are course-wide as before; what was written for a turma stays the turma’s', async () => {
    await byTurma(false);
    const plain = ((await must(post(writer, 'Pergunta para todos'))) as { id: string }).id;
    expect(await turmaOf(plain)).toBeNull();
    expect(await reads(stranger, plain)).toBe(true);
    expect(await reads(stranger, question)).toBe(false);
  });
});

// Issue 40, the turmas' e-mails through the outbox (docs/turmas.md "E-mails", 20261128008000/008001):
// - "Vaga na lista de espera" (turma_waitlist_open): when a course whose turmas were full sells again (a
//   seat leaves the turma, staff raise the seats, or the next turma opens its window), everyone on its
//   waiting list gets one message per turma; never two for the same opening, never another school's list,
//   never a student who stopped the kind.
// - "Comunicado para a turma" with "Enviar também por e-mail" (announcement): that turma's students
//   only, once each however often it is saved; another school's staff cannot send to it.
import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { useBackend } from '../harness.ts';
import { COURSE, SCHOOL, TURMA, USER } from '../rls/seed.ts';

const PASSWORD = 'senha-turma-123';
const DAY = 24 * 60 * 60 * 1000;
const backend = useBackend();
const service = backend.service();
const staff = backend.signedIn('adminDemo');
const rivalStaff = backend.signedIn('adminRival');
const aluno = backend.signedIn('aluno');

async function must<T>(p: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(JSON.stringify(error));
  return data;
}
const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const spDate = (days: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() + days * DAY));
const insertRow = async (table: string, row: Record<string, unknown>) => ((await must(service.from(table).insert(row).select('id').single())) as { id: string }).id;

async function student(name: string, school: string = SCHOOL.demo): Promise<{ id: string; client: SupabaseClient }> {
  const email = `turma.email.${tag()}@exemplo.com.br`;
  const created = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { name, school_id: school } });
  if (created.error) throw created.error;
  return { id: created.data.user!.id, client: await backend.signIn(email, PASSWORD) };
}

/** A published course of the school with one module and lesson. */
async function course(title: string, school: string = SCHOOL.demo) {
  const id = await insertRow('courses', { school_id: school, title, slug: `turma-email-${tag()}`, status: 'PUBLISHED', price: 100 });
  const moduleId = await insertRow('modules', { course_id: id, title: 'Módulo', order_index: 0 });
  await insertRow('lessons', { module_id: moduleId, course_id: id, title: 'Aula' });
  return id;
}

type Outbox = { user_id: string; kind: string; idempotency_key: string; payload: Record<string, unknown> };
const outbox = async (kind: string) =>
  (await must(service.from('email_outbox').select('user_id, kind, idempotency_key, payload').eq('kind', kind).order('created_at'))) as Outbox[];
const recipients = async (kind: string, filter: (o: Outbox) => boolean = () => true) => (await outbox(kind)).filter(filter).map((o) => o.user_id).sort();
const enrollmentOf = async (userId: string, courseId: string) =>
  ((await must(service.from('enrollments').select('id').eq('user_id', userId).eq('course_id', courseId).single())) as { id: string }).id;

describe('Vaga na lista de espera', () => {
  let courseId: string;
  let full: string;
  let seated: { id: string; client: SupabaseClient };
  let waiting: { id: string; client: SupabaseClient }[];
  let stopped: { id: string; client: SupabaseClient };
  let rivalWaiting: string;
  const ofCourse = (o: Outbox) => o.payload.course_id === courseId;

  beforeAll(async () => {
    courseId = await course('Curso da lista de espera');
    full = await insertRow('turmas', { course_id: courseId, name: 'Turma cheia', starts_on: spDate(10), seats: 1, waitlist_enabled: true });
    seated = await student('Aluna Sentada');
    await insertRow('enrollments', { user_id: seated.id, course_id: courseId, turma_id: full });
    waiting = [await student('Primeira Espera'), await student('Segunda Espera')];
    stopped = await student('Sem E-mails');
    for (const s of [...waiting, stopped]) await must(s.client.rpc('join_turma_waitlist', { p_course_id: courseId }));
    // The third stopped this kind (the profile's switch, or the e-mail's Descadastrar).
    await must(stopped.client.from('email_unsubscribes').insert({ user_id: stopped.id, kind: 'turma_waitlist_open' }).select('kind'));
    // Another school's full course with its own waiting student.
    const rivalCourse = await course('Curso rival', SCHOOL.rival);
    const rivalTurma = await insertRow('turmas', { course_id: rivalCourse, name: 'Rival cheia', starts_on: spDate(10), seats: 1, waitlist_enabled: true });
    await insertRow('enrollments', { user_id: USER.alunoRival, course_id: rivalCourse, turma_id: rivalTurma });
    rivalWaiting = (await student('Espera Rival', SCHOOL.rival)).id;
    await insertRow('turma_waitlist', { school_id: SCHOOL.rival, course_id: rivalCourse, turma_id: rivalTurma, user_id: rivalWaiting });
  }, 60_000);

  it('nothing while the turma is full', async () => {
    expect(await recipients('turma_waitlist_open', ofCourse)).toEqual([]);
  });

  it('a seat opens (a student moved out): one e-mail to everyone waiting, none to who stopped the kind or to another school', async () => {
    await must(staff.rpc('move_enrollment_to_turma', { p_enrollment_id: await enrollmentOf(seated.id, courseId), p_turma_id: null }));
    expect(await recipients('turma_waitlist_open', ofCourse)).toEqual(waiting.map((w) => w.id).sort());
    const [message] = (await outbox('turma_waitlist_open')).filter(ofCourse);
    expect(message!.payload).toMatchObject({ course_title: 'Curso da lista de espera', turma_name: 'Turma cheia', same_turma: true });
    expect(typeof message!.payload.course_slug).toBe('string');
    expect(await recipients('turma_waitlist_open')).not.toContain(stopped.id);
    expect(await recipients('turma_waitlist_open')).not.toContain(rivalWaiting);
  });

  it('the same opening seen again (the seat taken and freed, the seats raised, the job) writes nothing new', async () => {
    await must(staff.rpc('move_enrollment_to_turma', { p_enrollment_id: await enrollmentOf(seated.id, courseId), p_turma_id: full }));
    await must(staff.rpc('move_enrollment_to_turma', { p_enrollment_id: await enrollmentOf(seated.id, courseId), p_turma_id: null }));
    await must(staff.from('turmas').update({ seats: 5 }).eq('id', full).select('id'));
    await backend.sql('select private.notify_turma_waitlists()');
    expect((await outbox('turma_waitlist_open')).filter(ofCourse)).toHaveLength(2);
  });

  it('concurrent openings write one message per student', async () => {
    const id = await course('Curso concorrido');
    const turma = await insertRow('turmas', { course_id: id, name: 'Duas vagas', starts_on: spDate(10), seats: 2, waitlist_enabled: true });
    const seatedTwo = [await student('Sentado Um'), await student('Sentado Dois')];
    for (const s of seatedTwo) await insertRow('enrollments', { user_id: s.id, course_id: id, turma_id: turma });
    const w = await student('Espera Concorrida');
    await must(w.client.rpc('join_turma_waitlist', { p_course_id: id }));
    const ids = await Promise.all(seatedTwo.map((s) => enrollmentOf(s.id, id)));
    await Promise.all(ids.map((e) => must(staff.from('enrollments').delete().eq('id', e).select('id'))));
    expect(await recipients('turma_waitlist_open', (o) => o.payload.course_id === id)).toEqual([w.id]);
  });

  it("the next turma opening its window tells the list, with that turma; the job sees a window that opens with time", async () => {
    const id = await course('Curso da próxima turma');
    const first = await insertRow('turmas', { course_id: id, name: 'Primeira', starts_on: spDate(5), seats: 1, waitlist_enabled: true });
    await insertRow('enrollments', { user_id: (await student('Ocupante')).id, course_id: id, turma_id: first });
    const w = await student('Espera Próxima');
    await must(w.client.rpc('join_turma_waitlist', { p_course_id: id }));
    // Created with its window still closed: nothing yet.
    const next = await insertRow('turmas', { course_id: id, name: 'Segunda', starts_on: spDate(40), enroll_from: new Date(Date.now() + DAY).toISOString() });
    expect(await recipients('turma_waitlist_open', (o) => o.payload.course_id === id)).toEqual([]);
    // The window opens with time alone: its start moved into the past with no trigger firing, as the clock
    // would; nothing is written until the 5-minute job looks.
    await backend.sql('alter table public.turmas disable trigger turmas_waitlist');
    await backend.sql(`update public.turmas set enroll_from = now() - interval '1 minute' where id = $1`, [next]);
    await backend.sql('alter table public.turmas enable trigger turmas_waitlist');
    expect(await recipients('turma_waitlist_open', (o) => o.payload.course_id === id)).toEqual([]);
    await backend.sql('select private.notify_turma_waitlists()');
    const messages = (await outbox('turma_waitlist_open')).filter((o) => o.payload.course_id === id);
    expect(messages.map((m) => m.user_id)).toEqual([w.id]);
    expect(messages[0]!.payload).toMatchObject({ turma_name: 'Segunda', same_turma: false });
  });

  it('a message whose seat was taken again before the send is skipped, not sent', async () => {
    const id = await course('Curso da vaga disputada');
    const turma = await insertRow('turmas', { course_id: id, name: 'Uma vaga', starts_on: spDate(10), seats: 1, waitlist_enabled: true });
    const first = await student('Primeiro');
    await insertRow('enrollments', { user_id: first.id, course_id: id, turma_id: turma });
    const w = await student('Espera Disputa');
    await must(w.client.rpc('join_turma_waitlist', { p_course_id: id }));
    await must(staff.from('enrollments').delete().eq('id', await enrollmentOf(first.id, id)).select('id'));
    await insertRow('enrollments', { user_id: (await student('Mais Rápido')).id, course_id: id, turma_id: turma });
    const rows = await backend.sql<{ reason: string | null }>(
      `select private.email_outdated_reason(o) as reason from public.email_outbox o where o.kind = 'turma_waitlist_open' and o.payload->>'course_id' = $1`,
      [id],
    );
    expect(rows).toEqual([{ reason: 'A vaga já foi preenchida.' }]);
  });
});

describe('Comunicado para a turma por e-mail', () => {
  let current: string[];
  let otherTurma: string;
  let otherStudent: string;

  beforeAll(async () => {
    current = ((await must(service.from('enrollments').select('user_id').eq('turma_id', TURMA.excelCurrent).eq('status', 'ACTIVE'))) as { user_id: string }[]).map((e) => e.user_id).sort();
    expect(current).toContain(USER.aluno);
    otherTurma = await insertRow('turmas', { course_id: COURSE.excel, name: 'Turma paralela', starts_on: spDate(-7) });
    otherStudent = (await student('Zeca Paralelo')).id;
    await insertRow('enrollments', { user_id: otherStudent, course_id: COURSE.excel, turma_id: otherTurma });
  }, 60_000);

  const post = async (title: string, email: boolean) =>
    ((await must(staff.from('announcements').insert({ school_id: SCHOOL.demo, title, body: `<p>${title}</p>`, turma_id: TURMA.excelCurrent, email_students: email }).select('id').single())) as { id: string }).id;
  const sentFor = async (id: string) => recipients('announcement', (o) => o.idempotency_key.startsWith(`announcement:${id}:`));

  it("'Enviar também por e-mail': one message to each of the turma's students, none to another turma's", async () => {
    const id = await post('Aula ao vivo na quinta', true);
    expect(await sentFor(id)).toEqual(current);
    expect(await sentFor(id)).not.toContain(otherStudent);
    const [message] = (await outbox('announcement')).filter((o) => o.idempotency_key.startsWith(`announcement:${id}:`));
    expect(message!.payload).toMatchObject({ title: 'Aula ao vivo na quinta', body: '<p>Aula ao vivo na quinta</p>', turma_name: expect.any(String), course_id: COURSE.excel });
  });

  it('saved twice (edited, the box off and on) it is still one message per student', async () => {
    const id = await post('Material extra', true);
    await must(staff.from('announcements').update({ title: 'Material extra (corrigido)' }).eq('id', id).select('id'));
    await must(staff.from('announcements').update({ email_students: false }).eq('id', id).select('id'));
    await must(staff.from('announcements').update({ email_students: true }).eq('id', id).select('id'));
    expect(await sentFor(id)).toEqual(current);
    expect((await outbox('announcement')).filter((o) => o.idempotency_key.startsWith(`announcement:${id}:`))).toHaveLength(current.length);
  });

  it('without the box nothing is e-mailed; a student who stopped "Comunicados" gets none', async () => {
    const quiet = await post('Só no mural', false);
    expect(await sentFor(quiet)).toEqual([]);
    await must(aluno.from('email_unsubscribes').insert({ user_id: USER.aluno, kind: 'announcement' }).select('kind'));
    const id = await post('Depois do descadastro', true);
    expect(await sentFor(id)).toEqual(current.filter((u) => u !== USER.aluno));
  });

  it('a school-wide announcement cannot be e-mailed (the box is for a turma)', async () => {
    const { error } = await staff.from('announcements').insert({ school_id: SCHOOL.demo, title: 'Para todos', body: '<p>x</p>', email_students: true });
    expect(error?.message).toContain('announcements_email_turma');
    expect(await must(service.from('announcements').select('id').eq('title', 'Para todos'))).toEqual([]);
  });

  it("another school's staff cannot e-mail this school's turma (insert or switch the box on); the school's own staff can", async () => {
    const before = (await outbox('announcement')).length;
    const asRival = await rivalStaff.from('announcements').insert({ school_id: SCHOOL.rival, title: 'Intrusa', body: '<p>x</p>', turma_id: TURMA.excelCurrent, email_students: true });
    expect(asRival.error).not.toBeNull();
    const asDemo = await rivalStaff.from('announcements').insert({ school_id: SCHOOL.demo, title: 'Intrusa 2', body: '<p>x</p>', turma_id: TURMA.excelCurrent, email_students: true });
    expect(asDemo.error).not.toBeNull();
    const target = await post('Sem e-mail ainda', false);
    expect(await must(rivalStaff.from('announcements').update({ email_students: true }).eq('id', target).select('id'))).toEqual([]);
    expect((await outbox('announcement')).length).toBe(before);
    expect(await must(service.from('announcements').select('id').in('title', ['Intrusa', 'Intrusa 2']))).toEqual([]);
    // Control: this school's staff switch it on.
    await must(staff.from('announcements').update({ email_students: true }).eq('id', target).select('id'));
    expect((await sentFor(target)).length).toBeGreaterThan(0);
  });

  it('a message whose student left the turma before the send is skipped', async () => {
    const id = await post('Antes da mudança', true);
    const enrollment = await enrollmentOf(otherStudent, COURSE.excel);
    await must(staff.rpc('move_enrollment_to_turma', { p_enrollment_id: enrollment, p_turma_id: TURMA.excelCurrent }));
    await must(staff.from('announcements').update({ title: 'Antes da mudança (de novo)' }).eq('id', id).select('id'));
    // Saved again after the move: the newcomer gets it now, once.
    expect(await sentFor(id)).toContain(otherStudent);
    await must(staff.rpc('move_enrollment_to_turma', { p_enrollment_id: enrollment, p_turma_id: otherTurma }));
    const rows = await backend.sql<{ reason: string | null }>(
      `select private.email_outdated_reason(o) as reason from public.email_outbox o where o.idempotency_key = $1`,
      [`announcement:${id}:${otherStudent}`],
    );
    expect(rows).toEqual([{ reason: 'O aluno não está mais na turma.' }]);
  });
});

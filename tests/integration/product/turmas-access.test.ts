// Issue 40, turmas and lesson access, enforced by the database (docs/turmas.md): inside a turma drip
// counts from the turma's start, a turma's module date overrides the module's rule, nothing of a
// lesson opens before the start, and access ends with the turma as an expiry does (staff extend it by
// a later expires_at). Staff move a student between turmas without touching their progress; a full
// turma refuses staff; another school's staff can do nothing with the turmas; the student webhook's
// old cohort_id still works and now finds a turma by id or name.
// A course of its own (modules and lessons made with the service role), and the seed's Excel turmas.
import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { enrollmentAccess } from '../../../src/concepts/enrollment.ts';
import { useBackend } from '../harness.ts';
import { COURSE, ENROLLMENT, MODULE, SCHOOL, TURMA, USER } from '../rls/seed.ts';

const DAY = 24 * 60 * 60 * 1000;
const PASSWORD = 'senha-turma-123';
const DEMO_SECRET = 'whsec_escola_demo_local_0123456789abcdef';

const backend = useBackend();
const service = backend.service();
const staff = backend.signedIn('adminDemo');
const rivalStaff = backend.signedIn('adminRival');
const aluno = backend.signedIn('aluno');
const aluna = backend.signedIn('aluna');

/** 'aaaa-mm-dd' of today + days in São Paulo. */
function spDate(days: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() + days * DAY));
}

async function must<T>(p: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(JSON.stringify(error));
  return data;
}
const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

let courseId: string;
const M = { open: '', week: '', dated: '' };
const L = { open: '', week: '', dated: '' };
const T = { started: '', future: '', ended: '' };

async function insertRow(table: string, row: Record<string, unknown>): Promise<string> {
  return ((await must(service.from(table).insert(row).select('id').single())) as { id: string }).id;
}

/** A new student of the demo school, enrolled in the course (in `turma`, if given) today. */
async function student(name: string, turma: string | null) {
  const email = `turma.${name}.${tag()}@exemplo.com.br`;
  const created = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { name, school_id: SCHOOL.demo } });
  if (created.error) throw created.error;
  const id = created.data.user!.id;
  const enrollmentId = await insertRow('enrollments', { user_id: id, course_id: courseId, status: 'ACTIVE', turma_id: turma });
  return { client: await backend.signIn(email, PASSWORD), id, enrollmentId };
}

/** Whether the lesson's content reaches the student (the lesson page's own read). */
async function reads(client: SupabaseClient, lessonId: string): Promise<boolean> {
  const { data, error } = await client.from('lesson_contents').select('content').eq('lesson_id', lessonId);
  expect(error).toBeNull();
  return (data ?? []).length === 1;
}

/** Whether the student may save progress on the lesson (has_lesson_access in the write policy). */
async function saves(client: SupabaseClient, userId: string, lessonId: string): Promise<boolean> {
  const { error } = await client.from('progress').upsert({ user_id: userId, lesson_id: lessonId, last_position_sec: 5 }, { onConflict: 'user_id,lesson_id' });
  return error === null;
}

beforeAll(async () => {
  courseId = await insertRow('courses', { school_id: SCHOOL.demo, title: 'Curso em turmas', slug: `turmas-${tag()}`, status: 'PUBLISHED' });
  M.open = await insertRow('modules', { course_id: courseId, title: 'Boas-vindas', order_index: 0 });
  M.week = await insertRow('modules', { course_id: courseId, title: 'Semana 2', order_index: 1, release_mode: 'AFTER_ENROLLMENT', release_after_days: 7 });
  M.dated = await insertRow('modules', { course_id: courseId, title: 'Bônus', order_index: 2, release_mode: 'ON_DATE', release_on: spDate(30) });
  for (const key of ['open', 'week', 'dated'] as const) {
    L[key] = await insertRow('lessons', { module_id: M[key], course_id: courseId, title: `Aula ${key}` });
  }
  T.started = await insertRow('turmas', { course_id: courseId, name: 'Turma iniciada', starts_on: spDate(-8) });
  T.future = await insertRow('turmas', { course_id: courseId, name: 'Turma futura', starts_on: spDate(10), ends_on: spDate(100) });
  T.ended = await insertRow('turmas', { course_id: courseId, name: 'Turma encerrada', starts_on: spDate(-60), ends_on: spDate(-1) });
}, 120_000);

describe('drip inside a turma', () => {
  it('counts from the turma start: enrolled today in a turma that started 8 days ago, the 7-day module is open; outside a turma it is not', async () => {
    const inside = await student('dentro', T.started);
    const outside = await student('fora', null);
    expect(await reads(inside.client, L.week)).toBe(true);
    expect(await saves(inside.client, inside.id, L.week)).toBe(true);
    // Control: the same rule counted from today's enrollment.
    expect(await reads(outside.client, L.week)).toBe(false);
    expect(await saves(outside.client, outside.id, L.week)).toBe(false);
    expect(await reads(outside.client, L.open)).toBe(true);
  });

  it('before the start gives no lesson content at all, not even of an immediate module, and refuses progress', async () => {
    const early = await student('cedo', T.future);
    expect(await reads(early.client, L.open)).toBe(false);
    expect(await saves(early.client, early.id, L.open)).toBe(false);
    const written = await must(service.from('progress').select('id').eq('user_id', early.id));
    expect(written).toEqual([]);
    // The turma is theirs to read (name and dates for "Sua turma começa em …"); the course is still theirs.
    const mine = await must(early.client.from('turmas').select('id, name, starts_on, ends_on'));
    expect(mine).toEqual([{ id: T.future, name: 'Turma futura', starts_on: spDate(10), ends_on: spDate(100) }]);
    const [own] = (await must(early.client.from('enrollments').select('status, expires_at').eq('course_id', courseId))) as { status: 'ACTIVE'; expires_at: string | null }[];
    expect(enrollmentAccess(own)).toBe('active');
  });

  it("a turma's module date overrides the course's rule, both ways", async () => {
    const who = await student('datas', T.started);
    await must(staff.from('turma_module_dates').insert([
      { turma_id: T.started, module_id: M.dated, opens_on: spDate(-1) },
      { turma_id: T.started, module_id: M.open, opens_on: spDate(5) },
    ]).select('turma_id'));
    // ON_DATE in 30 days, opened yesterday for the turma; IMMEDIATE, closed until its turma date.
    expect(await reads(who.client, L.dated)).toBe(true);
    expect(await reads(who.client, L.open)).toBe(false);
    expect(await saves(who.client, who.id, L.open)).toBe(false);
    // Control: outside the turma the course's own rule.
    const outside = await student('regra', null);
    expect(await reads(outside.client, L.dated)).toBe(false);
    expect(await reads(outside.client, L.open)).toBe(true);
    await must(staff.from('turma_module_dates').delete().eq('turma_id', T.started).eq('module_id', M.open).select('turma_id'));
    expect(await reads(who.client, L.open)).toBe(true);
  });
});

describe('the end of a turma', () => {
  it('ends access as an expiry does; a later expires_at set by staff wins; a new end moves only the students not extended', async () => {
    const late = await student('encerrada', T.ended);
    const extended = await student('prorrogada', T.ended);
    const ended = (await must(service.from('enrollments').select('status, expires_at').eq('id', late.enrollmentId).single())) as { status: 'ACTIVE'; expires_at: string };
    // 00:00 in São Paulo after the last day.
    expect(new Date(ended.expires_at).toISOString()).toBe(new Date(`${spDate(0)}T03:00:00Z`).toISOString());
    expect(enrollmentAccess(ended)).toBe('expired');
    expect(await reads(late.client, L.open)).toBe(false);
    expect(await saves(late.client, late.id, L.open)).toBe(false);
    expect(await must(late.client.rpc('student_catalog', { p_school_id: SCHOOL.demo }))).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: courseId, enrollment_expires_at: ended.expires_at })]),
    );

    const later = new Date(Date.now() + 30 * DAY).toISOString();
    await must(staff.from('enrollments').update({ expires_at: later }).eq('id', extended.enrollmentId).select('id'));
    expect(await reads(extended.client, L.open)).toBe(true);

    // Staff give the turma 10 more days: the student whose expiry was the turma's end gets them.
    await must(staff.from('turmas').update({ ends_on: spDate(9) }).eq('id', T.ended).select('id'));
    expect(await reads(late.client, L.open)).toBe(true);
    const rows = (await must(service.from('enrollments').select('id, expires_at').in('id', [late.enrollmentId, extended.enrollmentId]))) as { id: string; expires_at: string }[];
    const byId = Object.fromEntries(rows.map((r) => [r.id, new Date(r.expires_at).getTime()]));
    expect(byId[late.enrollmentId]).toBe(new Date(`${spDate(10)}T03:00:00Z`).getTime());
    expect(byId[extended.enrollmentId]).toBe(new Date(later).getTime());
  });
});

describe('staff and turmas', () => {
  it("move the demo student to the next turma and back: progress, ratings, comments, quiz attempts and certificates stay; access follows the turma", async () => {
    const snapshot = async () => ({
      progress: await must(service.from('progress').select('lesson_id, completed_at, last_position_sec').eq('user_id', USER.aluno).order('lesson_id')),
      ratings: await must(service.from('lesson_ratings').select('lesson_id, rating').eq('user_id', USER.aluno).order('lesson_id')),
      comments: await must(service.from('lesson_comments').select('id, comment').eq('user_id', USER.aluno).order('id')),
      attempts: await must(service.from('quiz_attempts').select('id').eq('user_id', USER.aluno).order('id')),
      certificates: await must(service.from('certificates').select('id').eq('user_id', USER.aluno).order('id')),
    });
    const before = await snapshot();
    expect(before.progress?.length).toBeGreaterThan(0);
    expect(await reads(aluno, 'e0000000-0000-4000-8000-000000000002')).toBe(true);

    const moved = (await must(staff.rpc('move_enrollment_to_turma', { p_enrollment_id: ENROLLMENT.aluno, p_turma_id: TURMA.excelNext }))) as { turma_id: string; expires_at: string };
    expect(moved.turma_id).toBe(TURMA.excelNext);
    // The next turma has an end (90 days after its start): it is now the student's expiry.
    expect(moved.expires_at).not.toBeNull();
    expect(await snapshot()).toEqual(before);
    // It has not started: nothing of a lesson until it does.
    expect(await reads(aluno, 'e0000000-0000-4000-8000-000000000002')).toBe(false);

    const back = (await must(staff.rpc('move_enrollment_to_turma', { p_enrollment_id: ENROLLMENT.aluno, p_turma_id: TURMA.excelCurrent }))) as { turma_id: string; expires_at: string | null };
    expect(back).toMatchObject({ turma_id: TURMA.excelCurrent, expires_at: null });
    expect(await reads(aluno, 'e0000000-0000-4000-8000-000000000002')).toBe(true);
    expect(await snapshot()).toEqual(before);
  });

  it('a full turma refuses a staff enrollment or move with "Turma esgotada." and writes nothing; a freed seat lets it through', async () => {
    const small = await insertRow('turmas', { course_id: courseId, name: `Lotada ${tag()}`, starts_on: spDate(-1), seats: 1 });
    const first = await student('vaga', null);
    const second = await student('sem-vaga', null);
    await must(staff.rpc('move_enrollment_to_turma', { p_enrollment_id: first.enrollmentId, p_turma_id: small }));
    const refused = await staff.rpc('move_enrollment_to_turma', { p_enrollment_id: second.enrollmentId, p_turma_id: small });
    expect(refused.error?.message).toBe('Turma esgotada.');
    expect(((await must(service.from('enrollments').select('turma_id').eq('id', second.enrollmentId).single())) as { turma_id: string | null }).turma_id).toBeNull();
    await must(staff.rpc('move_enrollment_to_turma', { p_enrollment_id: first.enrollmentId, p_turma_id: null }));
    await must(staff.rpc('move_enrollment_to_turma', { p_enrollment_id: second.enrollmentId, p_turma_id: small }));
    const list = (await must(staff.rpc('admin_turmas', { p_course_id: courseId }))) as { id: string; status: string; students: number; seats_taken: number }[];
    expect(list.find((t) => t.id === small)).toMatchObject({ status: 'em andamento', students: 1, seats_taken: 1 });
    expect(list.find((t) => t.id === T.future)).toMatchObject({ status: 'aberta' });
  });

  it("another school's staff can do nothing with this school's turmas (each attempt checked in the database, beside the school's own staff)", async () => {
    const rival = rivalStaff;
    const own = staff;
    const turma = async (id: string) => (await must(service.from('turmas').select('name, seats, ends_on').eq('id', id).maybeSingle())) as Record<string, unknown> | null;
    const before = await turma(TURMA.excelNext);

    expect(await must(rival.from('turmas').select('id').eq('course_id', COURSE.excel))).toEqual([]);
    expect(await must(rival.from('turma_module_dates').select('turma_id').eq('turma_id', TURMA.excelCurrent))).toEqual([]);
    expect((await rival.from('turmas').insert({ course_id: COURSE.excel, name: 'Turma pirata', starts_on: spDate(3) })).error).not.toBeNull();
    expect(await must(service.from('turmas').select('id').eq('name', 'Turma pirata'))).toEqual([]);
    expect(await must(rival.from('turmas').update({ seats: 1 }).eq('id', TURMA.excelNext).select('id'))).toEqual([]);
    expect(await must(rival.from('turmas').delete().eq('id', TURMA.excelNext).select('id'))).toEqual([]);
    expect(await turma(TURMA.excelNext)).toEqual(before);
    expect((await rival.from('turma_module_dates').insert({ turma_id: TURMA.excelNext, module_id: MODULE.excel1, opens_on: spDate(99) })).error).not.toBeNull();
    expect(await must(service.from('turma_module_dates').select('module_id').eq('turma_id', TURMA.excelNext))).toEqual([]);
    expect((await rival.rpc('move_enrollment_to_turma', { p_enrollment_id: ENROLLMENT.aluno, p_turma_id: TURMA.excelNext })).error?.code).toBe('42501');
    expect(((await must(service.from('enrollments').select('turma_id').eq('id', ENROLLMENT.aluno).single())) as { turma_id: string }).turma_id).toBe(TURMA.excelCurrent);
    expect((await rival.rpc('admin_turmas', { p_course_id: COURSE.excel })).error?.code).toBe('42501');
    expect((await rival.rpc('turma_for', { p_course_id: COURSE.excel, p_turma: TURMA.excelNext })).error?.code).toBe('42501');
    // Their own student put in this school's turma: refused by the turma's course.
    expect((await rival.from('enrollments').insert({ user_id: USER.alunoRival, course_id: COURSE.rival, turma_id: TURMA.excelNext })).error).not.toBeNull();
    expect(await must(service.from('enrollments').select('id').eq('turma_id', TURMA.excelNext))).toEqual([]);

    // Control: the school's own staff do each of these.
    expect(await must(own.from('turmas').select('id').eq('course_id', COURSE.excel))).toHaveLength(2);
    const made = (await must(own.from('turmas').insert({ course_id: COURSE.excel, name: 'Turma extra', starts_on: spDate(3) }).select('id, school_id').single())) as { id: string; school_id: string };
    expect(made.school_id).toBe(SCHOOL.demo);
    expect(await must(own.from('turmas').update({ seats: 25 }).eq('id', made.id).select('seats'))).toEqual([{ seats: 25 }]);
    await must(own.from('turma_module_dates').insert({ turma_id: made.id, module_id: MODULE.excel1, opens_on: spDate(4) }).select('turma_id'));
    expect(await must(own.rpc('turma_for', { p_course_id: COURSE.excel, p_turma: ' turma EXTRA ' }))).toBe(made.id);
    expect(await must(own.from('turmas').delete().eq('id', made.id).select('id'))).toEqual([{ id: made.id }]);
  });

  it('a student reads only their own turma, and nothing of the staff lists', async () => {
    expect(await must(aluno.from('turmas').select('id'))).toEqual([{ id: TURMA.excelCurrent }]);
    expect(await must(aluno.from('turma_module_dates').select('module_id, opens_on'))).toEqual([{ module_id: MODULE.excel3, opens_on: expect.any(String) }]);
    expect(await must(aluna.from('turmas').select('id'))).toEqual([]);
    // What the course page can embed with the enrollment it already reads (docs/turmas.md).
    const page = await must(
      aluno.from('courses').select('id, enrollments(status, turma:turmas(name, starts_on, ends_on, turma_module_dates(module_id, opens_on)))').eq('id', COURSE.excel).eq('enrollments.user_id', USER.aluno).single(),
    );
    expect(page).toEqual({
      id: COURSE.excel,
      enrollments: [{ status: 'ACTIVE', turma: { name: expect.stringMatching(/^Turma de /), starts_on: spDate(-21), ends_on: null, turma_module_dates: [{ module_id: MODULE.excel3, opens_on: spDate(-7) }] } }],
    });
    expect((await aluno.rpc('admin_turmas', { p_course_id: COURSE.excel })).error?.code).toBe('42501');
    expect((await aluno.rpc('move_enrollment_to_turma', { p_enrollment_id: ENROLLMENT.aluno, p_turma_id: TURMA.excelNext })).error?.code).toBe('42501');
    // No update grant on the column: the move is the RPC's.
    expect((await aluno.from('enrollments').update({ turma_id: TURMA.excelNext } as never).eq('id', ENROLLMENT.aluno)).error).not.toBeNull();
    expect(((await must(service.from('enrollments').select('turma_id').eq('id', ENROLLMENT.aluno).single())) as { turma_id: string }).turma_id).toBe(TURMA.excelCurrent);
  });
});

describe('student-webhook and turmas', () => {
  async function webhook(body: Record<string, unknown>) {
    const res = await fetch(`${backend.url}/functions/v1/student-webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'x-webhook-secret': DEMO_SECRET },
      body: JSON.stringify({ school_id: SCHOOL.demo, course_id: courseId, name: 'Aluna do Webhook', ...body }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  const enrollmentOf = async (id: unknown) =>
    (await must(service.from('enrollments').select('turma_id, cohort_id').eq('id', String(id)).single())) as { turma_id: string | null; cohort_id: string | null };

  it("the old cohort_id still works: kept as before, and it puts the student in the turma with that name or id", async () => {
    const byName = await webhook({ email: `wh.nome.${tag()}@exemplo.com.br`, cohort_id: 'turma iniciada' });
    expect(byName.status).toBe(201);
    expect(await enrollmentOf(byName.body.enrollment_id)).toEqual({ turma_id: T.started, cohort_id: 'turma iniciada' });
    const byId = await webhook({ email: `wh.id.${tag()}@exemplo.com.br`, cohort_id: T.future });
    expect(await enrollmentOf(byId.body.enrollment_id)).toEqual({ turma_id: T.future, cohort_id: T.future });
    // A cohort that names no turma: stored, as before, and no turma.
    const free = await webhook({ email: `wh.livre.${tag()}@exemplo.com.br`, cohort_id: 'lançamento-2026' });
    expect(free.status).toBe(201);
    expect(await enrollmentOf(free.body.enrollment_id)).toEqual({ turma_id: null, cohort_id: 'lançamento-2026' });
  });

  it("takes a turma by name or id, refuses one the course does not have, and another course's turma is not found", async () => {
    const named = await webhook({ email: `wh.turma.${tag()}@exemplo.com.br`, turma: 'Turma Futura' });
    expect(named.status).toBe(201);
    expect(named.body.turma_id).toBe(T.future);
    const email = `wh.errada.${tag()}@exemplo.com.br`;
    const unknown = await webhook({ email, turma: 'Turma que não existe' });
    expect(unknown).toMatchObject({ status: 400, body: { error: 'Turma não encontrada neste curso', field: 'turma' } });
    const other = await webhook({ email, turma_id: TURMA.excelNext });
    expect(other.status).toBe(400);
    expect((await service.auth.admin.listUsers({ perPage: 1000 })).data.users.some((u) => u.email === email)).toBe(false);
  });
});

describe('"Sua turma começa amanhã"', () => {
  it('is written the day before the start for each active student of the turma, once, with the turma and its date', async () => {
    const soon = await student('amanha', T.future);
    const paused = await student('pausada', T.future);
    await must(service.from('enrollments').update({ status: 'PAUSED' }).eq('id', paused.enrollmentId).select('id'));
    const run = async (days: number) => must(service.rpc('queue_daily_emails', { p_now: new Date(Date.now() + days * DAY).toISOString() }));
    const mail = () => service.from('email_outbox').select('user_id, kind, idempotency_key, payload').eq('kind', 'turma_starts_tomorrow').in('user_id', [soon.id, paused.id]);
    // Two days before: nothing yet.
    await run(8);
    expect(await must(mail())).toEqual([]);
    await run(9);
    await run(9);
    expect(await must(mail())).toEqual([
      {
        user_id: soon.id,
        kind: 'turma_starts_tomorrow',
        idempotency_key: `turma:${T.future}:${soon.id}`,
        payload: { name: 'amanha', course_title: 'Curso em turmas', course_id: courseId, turma_name: 'Turma futura', starts_on: spDate(10) },
      },
    ]);
  });
});

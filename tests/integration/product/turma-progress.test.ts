// Issue 40, the staff screens: admin_turma_students (20261128004100), a turma's students with their
// progress against the turma's calendar. "Released" is the lesson-access rule itself (a student of the
// turma can save progress on exactly that many lessons), "behind" is released lessons not completed,
// and "Alunos em risco" is an active student of a turma under way with 7 days without activity or
// 2+ lessons behind. Only staff of the course: another school's staff and a student are refused.
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { SCHOOL } from '../rls/seed.ts';
import { fetchEnrollments, moveEnrollmentToTurma } from '../../../src/features/enrollments/api/queries.ts';

const DAY = 24 * 60 * 60 * 1000;
const PASSWORD = 'senha-turma-123';

const backend = useBackend();
const service = backend.service();
const staff = backend.signedIn('adminDemo');
const rivalStaff = backend.signedIn('adminRival');
const aluno = backend.signedIn('aluno');

function spDate(days: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() + days * DAY));
}
async function must<T>(p: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(JSON.stringify(error));
  return data;
}
const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
async function insertRow(table: string, row: Record<string, unknown>): Promise<string> {
  return ((await must(service.from(table).insert(row).select('id').single())) as { id: string }).id;
}

interface Row {
  enrollment_id: string;
  user_id: string;
  name: string;
  phone: string | null;
  total: number;
  released: number;
  completed: number;
  behind: number;
  last_activity: string | null;
  inactive_days: number;
  at_risk: boolean;
  total_count: number;
}

let courseId: string;
const lessons: Record<'open1' | 'open2' | 'week' | 'dated' | 'later', string> = { open1: '', open2: '', week: '', dated: '', later: '' };
let turma = '';
let nextTurma = '';
const people: Record<'emDia' | 'atrasado' | 'parado' | 'pausado' | 'futuro' | 'conferente', { id: string; email: string; enrollmentId: string }> = {} as never;

async function student(key: keyof typeof people, name: string, turmaId: string, status = 'ACTIVE') {
  const email = `progresso.${key}.${tag()}@exemplo.com.br`;
  const created = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { name, school_id: SCHOOL.demo } });
  if (created.error) throw created.error;
  const id = created.data.user!.id;
  await must(service.from('profiles').update({ phone: '(11) 98765-4321' }).eq('id', id));
  people[key] = { id, email, enrollmentId: await insertRow('enrollments', { user_id: id, course_id: courseId, status, turma_id: turmaId }) };
}

/** Completed lessons, saved `daysAgo` days ago (the service role writes the moment, as a test clock). */
async function completed(key: keyof typeof people, which: (keyof typeof lessons)[], daysAgo: number) {
  const at = new Date(Date.now() - daysAgo * DAY).toISOString();
  for (const l of which) {
    await must(service.from('progress').insert({ user_id: people[key].id, lesson_id: lessons[l], completed_at: at, created_at: at, updated_at: at }));
  }
}

async function list(client = staff, args: Record<string, unknown> = {}) {
  return client.rpc('admin_turma_students', { p_turma_id: turma, ...args });
}

beforeAll(async () => {
  courseId = await insertRow('courses', { school_id: SCHOOL.demo, title: 'Curso com calendário', slug: `calendario-${tag()}`, status: 'PUBLISHED' });
  const open = await insertRow('modules', { course_id: courseId, title: 'Boas-vindas', order_index: 0 });
  const week = await insertRow('modules', { course_id: courseId, title: 'Semana 2', order_index: 1, release_mode: 'AFTER_ENROLLMENT', release_after_days: 7 });
  const dated = await insertRow('modules', { course_id: courseId, title: 'Módulo datado', order_index: 2, release_mode: 'ON_DATE', release_on: spDate(30) });
  const later = await insertRow('modules', { course_id: courseId, title: 'Mais tarde', order_index: 3, release_mode: 'ON_DATE', release_on: spDate(30) });
  const lesson = (moduleId: string, title: string) => insertRow('lessons', { module_id: moduleId, course_id: courseId, title });
  lessons.open1 = await lesson(open, 'Aula 1');
  lessons.open2 = await lesson(open, 'Aula 2');
  lessons.week = await lesson(week, 'Aula da semana 2');
  lessons.dated = await lesson(dated, 'Aula datada');
  lessons.later = await lesson(later, 'Aula futura');
  // Started 10 days ago: the immediate and 7-day modules are open, the dated one by the turma's own date.
  turma = await insertRow('turmas', { course_id: courseId, name: 'Turma do calendário', starts_on: spDate(-10) });
  await must(service.from('turma_module_dates').insert({ turma_id: turma, module_id: dated, opens_on: spDate(-1) }));
  nextTurma = await insertRow('turmas', { course_id: courseId, name: 'Próxima turma', starts_on: spDate(20) });

  await student('emDia', 'Ana Em Dia', turma);
  await student('atrasado', 'Bruno Atrasado', turma);
  await student('parado', 'Carla Parada', turma);
  await student('pausado', 'Diego Pausado', turma, 'PAUSED');
  await student('conferente', 'Elisa Conferente', turma);
  await student('futuro', 'Fábio Futuro', nextTurma);
  await completed('emDia', ['open1', 'open2', 'week', 'dated'], 1);
  await completed('atrasado', ['open1'], 0);
  await completed('parado', ['open1', 'open2', 'week', 'dated'], 8);
}, 120_000);

describe('admin_turma_students', () => {
  it("counts the lessons released by the turma's calendar exactly as lesson access does", async () => {
    const rows = (await must(list())) as Row[];
    expect(rows.every((r) => r.total === 5 && r.released === 4)).toBe(true);
    // The same rule from the student's side: Elisa may save progress on the four released lessons only.
    const elisa = await backend.signIn(people.conferente.email, PASSWORD);
    const saved: string[] = [];
    for (const [key, id] of Object.entries(lessons)) {
      const { error } = await elisa.from('progress').upsert({ user_id: people.conferente.id, lesson_id: id, last_position_sec: 5 }, { onConflict: 'user_id,lesson_id' });
      if (!error) saved.push(key);
    }
    expect(saved.sort()).toEqual(['dated', 'open1', 'open2', 'week']);
  });

  it('says who is on time, behind and idle, and lists "Alunos em risco" (7 days without activity, or 2+ lessons behind)', async () => {
    const rows = (await must(list())) as Row[];
    const by = (key: keyof typeof people) => rows.find((r) => r.user_id === people[key].id)!;
    expect(rows.map((r) => r.name)).toEqual(['Ana Em Dia', 'Bruno Atrasado', 'Carla Parada', 'Diego Pausado', 'Elisa Conferente']);
    expect(by('emDia')).toMatchObject({ completed: 4, behind: 0, inactive_days: 1, at_risk: false, phone: '(11) 98765-4321' });
    expect(by('atrasado')).toMatchObject({ completed: 1, behind: 3, inactive_days: 0, at_risk: true });
    expect(by('parado')).toMatchObject({ completed: 4, behind: 0, inactive_days: 8, at_risk: true });
    expect(by('parado').last_activity).not.toBeNull();
    // Elisa saved positions just now (no completion): 4 behind, so at risk; a paused student is not followed.
    expect(by('conferente')).toMatchObject({ completed: 0, behind: 4, at_risk: true });
    expect(by('pausado')).toMatchObject({ behind: 4, at_risk: false });

    const atRisk = (await must(list(staff, { p_at_risk_only: true }))) as Row[];
    expect(atRisk.map((r) => r.name)).toEqual(['Bruno Atrasado', 'Carla Parada', 'Elisa Conferente']);
    expect(atRisk[0].total_count).toBe(3);
  });

  it('pages and searches with the total', async () => {
    const page = (await must(list(staff, { p_limit: 2, p_offset: 2 }))) as Row[];
    expect(page.map((r) => r.name)).toEqual(['Carla Parada', 'Diego Pausado']);
    expect(page[0].total_count).toBe(5);
    const found = (await must(list(staff, { p_search: 'bruno' }))) as Row[];
    expect(found.map((r) => r.name)).toEqual(['Bruno Atrasado']);
    const { error } = await list(staff, { p_limit: 5000 });
    expect(error?.code).toBe('22023');
  });

  it('a turma that has not started has nobody at risk yet', async () => {
    const rows = (await must(staff.rpc('admin_turma_students', { p_turma_id: nextTurma }))) as Row[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'Fábio Futuro', released: 0, at_risk: false });
  });

  it("another school's staff and a student are refused and read nothing; the school's staff (control) read the turma", async () => {
    for (const client of [rivalStaff, aluno]) {
      const { data, error } = await list(client);
      expect(error?.code).toBe('42501');
      expect(data).toBeNull();
    }
    const student = await backend.signIn(people.emDia.email, PASSWORD);
    const own = await list(student);
    expect(own.error?.code).toBe('42501');
    const control = (await must(list())) as Row[];
    expect(control).toHaveLength(5);
  });

  it("Matrículas: filtered by turma with the turma's name; Mover de turma keeps the progress; another school's staff cannot move", async () => {
    const { rows, total } = await fetchEnrollments(staff, SCHOOL.demo, { courseId, status: '', turmaId: nextTurma }, 0);
    expect(total).toBe(1);
    expect(rows[0]).toMatchObject({ user_id: people.futuro.id, turma_id: nextTurma, turma: { name: 'Próxima turma' } });

    // Attack first: the rival school's staff move Ana; nothing changes.
    await expect(moveEnrollmentToTurma(rivalStaff, { id: people.emDia.enrollmentId, turmaId: nextTurma })).rejects.toMatchObject({ code: '42501' });
    const still = await must(service.from('enrollments').select('turma_id').eq('id', people.emDia.enrollmentId).single());
    expect(still?.turma_id).toBe(turma);

    await moveEnrollmentToTurma(staff, { id: people.emDia.enrollmentId, turmaId: nextTurma });
    const moved = (await must(staff.rpc('admin_turma_students', { p_turma_id: nextTurma }))) as Row[];
    expect(moved.find((r) => r.user_id === people.emDia.id)).toMatchObject({ completed: 4, released: 0 });
    await moveEnrollmentToTurma(staff, { id: people.emDia.enrollmentId, turmaId: turma });
    const back = (await must(list())) as Row[];
    expect(back.find((r) => r.user_id === people.emDia.id)).toMatchObject({ completed: 4, behind: 0 });
  });

  it('Relatórios filter by turma (20261128004101): the summary and the students of one turma; another school\'s staff read nothing of it; old callers answer as before', async () => {
    const summary = (await must(staff.rpc('admin_report_summary', { p_school_id: SCHOOL.demo, p_course_id: courseId, p_turma_id: nextTurma }).single())) as { total_students: number };
    expect(summary.total_students).toBe(1);
    const whole = (await must(staff.rpc('admin_report_summary', { p_school_id: SCHOOL.demo, p_course_id: courseId }).single())) as { total_students: number };
    expect(whole.total_students).toBe(6);
    const inTurma = (await must(staff.rpc('admin_report_students', { p_school_id: SCHOOL.demo, p_course_id: courseId, p_turma_id: turma }))) as { name: string }[];
    expect(inTurma.map((r) => r.name).sort()).toEqual(['Ana Em Dia', 'Bruno Atrasado', 'Carla Parada', 'Diego Pausado', 'Elisa Conferente']);

    // The rival school's staff, asking with this school's turma: refused for this school, nothing in theirs.
    const { error } = await rivalStaff.rpc('admin_report_summary', { p_school_id: SCHOOL.demo, p_turma_id: turma });
    expect(error?.code).toBe('42501');
    const theirs = (await must(rivalStaff.rpc('admin_report_students', { p_turma_id: turma }))) as unknown[];
    expect(theirs).toEqual([]);
  });

  it("the Turmas list's average progress (admin_turmas_progress), staff of the course only", async () => {
    const rows = (await must(staff.rpc('admin_turmas_progress', { p_course_id: courseId }))) as { turma_id: string; average_progress: number }[];
    // Ana 4/5, Bruno 1/5, Carla 4/5, Diego 0, Elisa 0 → 36%; Fábio 0.
    expect(rows.find((r) => r.turma_id === turma)?.average_progress).toBe(36);
    expect(rows.find((r) => r.turma_id === nextTurma)?.average_progress).toBe(0);
    for (const client of [rivalStaff, aluno]) {
      const { data, error } = await client.rpc('admin_turmas_progress', { p_course_id: courseId });
      expect(error?.code).toBe('42501');
      expect(data).toBeNull();
    }
  });

  it('the completion funnel by turma (20261128004102): enrolled and completed count the turma only; another school\'s staff are refused', async () => {
    type Step = { lesson_id: string; enrolled: number; completed: number };
    const all = (await must(staff.rpc('admin_chart_course_funnel', { p_course_id: courseId }))) as Step[];
    expect(all.find((r) => r.lesson_id === lessons.open1)).toMatchObject({ enrolled: 6, completed: 3 });
    const next = (await must(staff.rpc('admin_chart_course_funnel', { p_course_id: courseId, p_turma_id: nextTurma }))) as Step[];
    expect(next.find((r) => r.lesson_id === lessons.open1)).toMatchObject({ enrolled: 1, completed: 0 });
    const { data, error } = await rivalStaff.rpc('admin_chart_course_funnel', { p_course_id: courseId, p_turma_id: turma });
    expect(error?.code).toBe('42501');
    expect(data).toBeNull();
  });
});

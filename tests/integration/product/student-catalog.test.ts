// public.student_catalog, the home page's one request: each course summed up by the database for the
// caller (lessons, lessons done, first preview, last lesson watched, enrollment), enrolled courses
// first and a page of the others, row-level security deciding what the caller sees.
import { describe, expect, it } from 'vitest';
import { fetchCatalog } from '../../../src/features/courses/api/queries.ts';
import { useBackend } from '../harness.ts';

const DEMO = '5c000000-0000-4000-8000-000000000001';
const RIVAL = '5c000000-0000-4000-8000-000000000002';
const EXCEL = 'c0000000-0000-4000-8000-000000000001';
const WELCOME = 'e0000000-0000-4000-8000-000000000001'; // preview, completed by aluno
const FORMULAS = 'e0000000-0000-4000-8000-000000000003'; // in progress for aluno (3 s)

const backend = useBackend();
const aluno = backend.signedIn('aluno');
const aluna = backend.signedIn('aluna');

async function sql<T>(text: string, params: unknown[] = []): Promise<T[]> {
  return (await backend.server.ctx.engine.query<T>(text, params)).rows;
}

describe('the student home in one request', () => {
  it('sums up each enrolled course from the real rows', async () => {
    const { courses } = await fetchCatalog(aluno, { schoolId: DEMO });
    const excel = courses.find((c) => c.id === EXCEL)!;
    const [expected] = await sql<{ lessons: number; done: number }>(
      `select (select count(*)::int from public.lessons where course_id = $1) as lessons,
              (select count(*)::int from public.progress p join public.lessons l on l.id = p.lesson_id
                where l.course_id = $1 and p.user_id = 'a0000000-0000-4000-8000-000000000011' and p.completed_at is not null) as done`,
      [EXCEL],
    );
    expect(excel).toMatchObject({
      enrollment: { status: 'ACTIVE' },
      lesson_count: expected!.lessons,
      completed_count: expected!.done,
      first_preview_lesson_id: WELCOME,
    });
    // Three progress rows saved together: the lesson still in progress is the one to continue.
    expect(excel.last_watched).toMatchObject({ lesson_id: FORMULAS, title: 'Fórmulas básicas', last_position_sec: 3, completed_at: null });
  });

  it('lists enrolled courses first, then the others newest first, with how many others there are', async () => {
    const { courses, availableTotal } = await fetchCatalog(aluno, { schoolId: DEMO });
    const enrolled = await sql<{ course_id: string }>(`select course_id from public.enrollments where user_id = 'a0000000-0000-4000-8000-000000000011'`);
    const published = await sql<{ id: string }>(`select id from public.courses where school_id = $1 and status = 'PUBLISHED' order by created_at desc, id`, [DEMO]);
    const mine = new Set(enrolled.map((e) => e.course_id));
    const firstOthers = courses.findIndex((c) => c.enrollment === null);
    expect(courses.slice(0, firstOthers).every((c) => mine.has(c.id))).toBe(true);
    expect(courses.slice(firstOthers).map((c) => c.id)).toEqual(published.map((p) => p.id).filter((id) => !mine.has(id)));
    expect(availableTotal).toBe(published.filter((p) => !mine.has(p.id)).length);
    // Nothing of courses without enrollment but what the card shows: no progress of someone else.
    expect(courses.slice(firstOthers).every((c) => c.completed_count === 0 && c.last_watched === null)).toBe(true);
  });

  it('sends a page of the courses without enrollment and still counts them all', async () => {
    const all = await fetchCatalog(aluno, { schoolId: DEMO });
    const one = await fetchCatalog(aluno, { schoolId: DEMO, availableLimit: 1 });
    const none = await fetchCatalog(aluno, { schoolId: DEMO, availableLimit: 0 });
    expect(one.courses.filter((c) => !c.enrollment)).toHaveLength(Math.min(1, all.availableTotal));
    expect(none.courses.every((c) => c.enrollment)).toBe(true);
    expect([one.availableTotal, none.availableTotal]).toEqual([all.availableTotal, all.availableTotal]);
  });

  it('counts only the caller’s own progress, and only lessons still in the course', async () => {
    const before = (await fetchCatalog(aluna, { schoolId: DEMO })).courses.find((c) => c.id === EXCEL)!;
    // aluno's progress never shows in aluna's catalog.
    expect(before.last_watched?.lesson_id).not.toBe(FORMULAS);
    // A lesson aluno completed leaves the course: his count drops with it.
    const start = (await fetchCatalog(aluno, { schoolId: DEMO })).courses.find((c) => c.id === EXCEL)!;
    await sql(`delete from public.lessons where id = $1`, [WELCOME]);
    const after = (await fetchCatalog(aluno, { schoolId: DEMO })).courses.find((c) => c.id === EXCEL)!;
    expect(after.lesson_count).toBe(start.lesson_count - 1);
    expect(after.completed_count).toBe(start.completed_count - 1);
    expect(after.first_preview_lesson_id).not.toBe(WELCOME);
  });

  it('gives nothing of another school, and nothing to a signed-out visitor', async () => {
    expect((await fetchCatalog(aluno, { schoolId: RIVAL })).courses).toEqual([]);
    const anon = await backend.anon().rpc('student_catalog', { p_school_id: DEMO });
    expect(anon.error).not.toBeNull();
    expect(anon.data).toBeNull();
  });
});

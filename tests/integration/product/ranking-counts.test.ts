// Issue 38: the ranking's lesson counts (private.ranking_months) are added and taken as progress rows
// come, go and change, instead of recounted on every write. They must stay what a recount gives:
// after each kind of change below (a student's completions through the API, at once too; a position
// saved; completions of other months; a quiz published that clears completions; rows moved to another
// course; rows deleted; an account deleted; a course deleted), the table is compared with
// private.ranking_refresh's recount of every student and month.
import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Engine } from '../../../local-supabase/db/engine.ts';
import { useBackend } from '../harness.ts';

const PASSWORD = 'senha-contagem-123';
const backend = useBackend();
const service = backend.service();
let db: Engine;

async function must<T>(p: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(JSON.stringify(error));
  return data;
}
const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

interface Student {
  id: string;
  client: SupabaseClient;
}
let school: string;
let courses: { id: string; lessons: string[] }[];
let students: Student[];

beforeAll(async () => {
  db = backend.server.ctx.engine;
  const t = tag();
  school = ((await must(service.from('schools').insert({ slug: `contagem-${t}`, name: `Escola Contagem ${t}` }).select('id').single())) as { id: string }).id;
  courses = [];
  for (let c = 0; c < 3; c++) {
    const course = (await must(service.from('courses').insert({ school_id: school, title: `Curso ${c} ${t}`, slug: `curso-${c}-${t}`, status: 'PUBLISHED' }).select('id').single())) as { id: string };
    const mod = (await must(service.from('modules').insert({ course_id: course.id, title: 'Módulo 1' }).select('id').single())) as { id: string };
    const lessons = (await must(
      service.from('lessons').insert([0, 1, 2, 3].map((i) => ({ module_id: mod.id, course_id: course.id, title: `Aula ${i + 1}`, order_index: i }))).select('id, order_index'),
    )) as { id: string; order_index: number }[];
    courses.push({ id: course.id, lessons: lessons.sort((a, b) => a.order_index - b.order_index).map((l) => l.id) });
  }
  students = [];
  for (let i = 0; i < 4; i++) {
    const email = `contagem.${tag()}@exemplo.com.br`;
    const created = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { name: `Aluno ${i}`, school_id: school } });
    if (created.error) throw created.error;
    const id = created.data.user!.id;
    await must(service.from('enrollments').insert(courses.map((c) => ({ user_id: id, course_id: c.id, status: 'ACTIVE' }))).select('id'));
    students.push({ id, client: await backend.signIn(email, PASSWORD) });
  }
});

type Row = { school_id: string; user_id: string; month: string; lessons: number; quizzes: number; answers: number };
const ROWS = `select school_id::text, user_id::text, month::text, lessons, quizzes, answers from private.ranking_months where school_id = $1 order by user_id, month`;

/** Carries the recount out of the transaction it is rolled back with. */
class Recount extends Error {
  constructor(readonly rows: Row[]) {
    super('recounted, rolled back');
  }
}

/** The school's ranking_months as kept, and as a recount of every student and month gives it (rolled back). */
async function keptAndRecounted(): Promise<{ kept: Row[]; recounted: Row[] }> {
  const kept = (await db.query<Row>(ROWS, [school])).rows;
  try {
    await db.transaction(async (tx) => {
      await tx.query(
        `select private.ranking_refresh(array_agg(k.user_id), array_agg(k.month))
           from (select p.user_id, private.sp_month(p.completed_at) as month from public.progress p where p.completed_at is not null
                 union select r.user_id, r.month from private.ranking_months r) k`,
      );
      throw new Recount((await tx.query<Row>(ROWS, [school])).rows);
    });
  } catch (e) {
    if (e instanceof Recount) return { kept, recounted: e.rows };
    throw e;
  }
  throw new Error('unreachable');
}

async function expectExact() {
  const { kept, recounted } = await keptAndRecounted();
  expect(kept).toEqual(recounted);
  return kept;
}

const complete = (s: Student, lesson_id: string) =>
  must(s.client.from('progress').upsert({ user_id: s.id, lesson_id, completed_at: new Date().toISOString() }, { onConflict: 'user_id,lesson_id' }).select('id'));
const savePosition = (s: Student, lesson_id: string, last_position_sec: number) =>
  must(s.client.from('progress').upsert({ user_id: s.id, lesson_id, last_position_sec }, { onConflict: 'user_id,lesson_id' }).select('id'));

describe('ranking_months is what a recount gives', () => {
  it('as students complete lessons through the API, one at a time and several at once', async () => {
    const [ana, bia] = students as [Student, Student];
    await complete(ana, courses[0]!.lessons[0]!);
    await complete(ana, courses[1]!.lessons[0]!);
    // A position first, the completion later (an update of the row), then a position again (no change).
    await savePosition(bia, courses[0]!.lessons[1]!, 30);
    await complete(bia, courses[0]!.lessons[1]!);
    await savePosition(bia, courses[0]!.lessons[1]!, 45);
    // Completing twice counts once (completion is final).
    await complete(bia, courses[0]!.lessons[1]!);
    // Four requests of one student at the same time.
    await Promise.all(courses[2]!.lessons.map((l) => complete(ana, l)));
    const rows = await expectExact();
    expect(rows.map((r) => [r.user_id, r.lessons])).toEqual(
      expect.arrayContaining([
        [ana.id, 6],
        [bia.id, 1],
      ]),
    );
  });

  it('with completions of other months, and many rows in one statement', async () => {
    const [, , cid, dan] = students as [Student, Student, Student, Student];
    await db.query(
      `insert into public.progress (user_id, lesson_id, completed_at)
       select u.id, l.id, now() - (u.n * 35 || ' days')::interval
         from unnest($1::uuid[]) with ordinality as u(id, n), unnest($2::uuid[]) as l(id)`,
      [[cid.id, dan.id], courses.flatMap((c) => c.lessons.slice(0, 2))],
    );
    const rows = await expectExact();
    expect(new Set(rows.filter((r) => r.user_id === dan.id).map((r) => r.month)).size).toBe(1);
    expect(rows.filter((r) => r.user_id === cid.id)[0]?.lessons).toBe(6);
  });

  it('when completions are cleared (a quiz published on the lesson) and rows move to another course', async () => {
    // As publish_quiz does, as the owner (the API's roles can never clear a completion).
    await db.query(`update public.progress set completed_at = null where lesson_id = $1`, [courses[0]!.lessons[1]!]);
    await expectExact();
    // A row moved to a lesson of another course (course_id follows the lesson).
    await db.query(`update public.progress set lesson_id = $1 where user_id = $2 and lesson_id = $3`, [courses[1]!.lessons[3]!, students[0]!.id, courses[0]!.lessons[0]!]);
    await expectExact();
  });

  it('when rows, an account and a course are deleted', async () => {
    await db.query(`delete from public.progress where lesson_id = $1`, [courses[2]!.lessons[0]!]);
    await expectExact();
    const deleted = await service.auth.admin.deleteUser(students[3]!.id);
    expect(deleted.error).toBeNull();
    const afterAccount = await expectExact();
    expect(afterAccount.some((r) => r.user_id === students[3]!.id)).toBe(false);
    await db.query(`delete from public.courses where id = $1`, [courses[1]!.id]);
    const afterCourse = await expectExact();
    // Ana still has her course-3 lessons (3 of 4 left), and nothing of the deleted course.
    expect(afterCourse.find((r) => r.user_id === students[0]!.id)?.lessons).toBe(3);
  });
});

// Issue 38: private.has_lesson_access (the check of every progress, rating and comment write) became
// one query over the lesson, its course, its module and the caller's enrollment. The rule must be the
// one it was: here the function as it was before (is_course_staff, can_view_course, has_course_access
// and is_module_released, 20261128000900) is rebuilt for the session and both answer for every lesson
// of the seed and every caller — super admin and staff of either school, active, paused, expired,
// inactive and new students, another school's student, a signed-out visitor, and a staff member with
// a verified factor but an aal1 session — with modules released later (days after the enrollment, a
// date to come) and a preview lesson in a draft course.
import { expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { COURSE, LESSON, MODULE, USER } from '../rls/seed.ts';

const backend = useBackend();

const BEFORE = `
create function pg_temp.has_lesson_access_before(p_lesson_id uuid) returns boolean
language sql stable as $$
  select exists (
    select 1 from public.lessons l
    where l.id = p_lesson_id
      and (private.is_course_staff(l.course_id)
           or (l.is_preview and private.can_view_course(l.course_id))
           or (private.has_course_access(l.course_id) and private.is_module_released(l.module_id)))
  )
$$`;

class Answers extends Error {
  constructor(readonly rows: { caller: string; lesson: string; now: boolean; before: boolean }[]) {
    super('rolled back');
  }
}

it('answers as before for every lesson and caller', async () => {
  const callers: [string, Record<string, unknown> | null][] = [
    ...Object.entries(USER).map(([name, id]): [string, Record<string, unknown>] => [name, { sub: id, role: 'authenticated', aal: 'aal1' }]),
    ['super (aal2)', { sub: USER.super, role: 'authenticated', aal: 'aal2' }],
    ['signed out', null],
  ];
  let answers: Answers['rows'] = [];
  try {
    await backend.server.ctx.engine.transaction(async (tx) => {
      await tx.exec(BEFORE);
      // Modules released later, and a preview lesson in a draft course.
      await tx.query(`update public.modules set release_mode = 'AFTER_ENROLLMENT', release_after_days = 3650 where id = $1`, [MODULE.excel2]);
      await tx.query(`update public.modules set release_mode = 'ON_DATE', release_on = current_date + 30 where id = $1`, [MODULE.excel3]);
      // Issue 40: the demo student's turma opens module 3 on a date of its own; without it the module's rule decides.
      await tx.query(`delete from public.turma_module_dates where module_id = $1`, [MODULE.excel3]);
      await tx.query(`update public.lessons set is_preview = true where course_id = $1`, [COURSE.draft]);
      // The demo school's admin holds a verified factor (so an aal1 session of theirs has no staff power).
      await tx.query(
        `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at)
         values (gen_random_uuid(), $1, 'app', 'totp', 'verified', now(), now())`,
        [USER.adminDemo],
      );
      const rows: Answers['rows'] = [];
      for (const [caller, claims] of callers) {
        await tx.query(`select set_config('request.jwt.claims', $1, true)`, [claims ? JSON.stringify(claims) : '']);
        const r = await tx.query<{ lesson: string; now: boolean; before: boolean }>(
          `select l.id::text as lesson, private.has_lesson_access(l.id) as now, pg_temp.has_lesson_access_before(l.id) as before
             from public.lessons l order by l.id`,
        );
        rows.push(...r.rows.map((x) => ({ caller, ...x })));
      }
      throw new Answers(rows);
    });
  } catch (e) {
    if (!(e instanceof Answers)) throw e;
    answers = e.rows;
  }
  expect(answers.length).toBeGreaterThan(100);
  expect(answers.filter((a) => a.now !== a.before)).toEqual([]);
  // The cases are really there: granted and refused, by each branch of the rule.
  const has = (caller: string, lesson: string) => answers.find((a) => a.caller === caller && a.lesson === lesson)?.now;
  expect(has('aluno', LESSON.excelVimeo)).toBe(true); // enrolled, module 1
  expect(has('aluno', LESSON.excelProcv)).toBe(false); // enrolled, module released 3,650 days after the enrollment
  expect(has('aluno', LESSON.excelPivot)).toBe(false); // enrolled, module released on a date to come
  expect(has('pausado', LESSON.excelVimeo)).toBe(false);
  expect(has('pausado', LESSON.excelPreview)).toBe(true);
  expect(has('novo', LESSON.marketingPreview)).toBe(true); // a preview of a published course
  expect(has('instrutor', LESSON.excelPivot)).toBe(true); // staff, whatever the release
  expect(has('adminDemo', LESSON.excelPivot)).toBe(false); // a verified factor and an aal1 session
  expect(has('super (aal2)', LESSON.excelPivot)).toBe(true);
  expect(has('alunoRival', LESSON.excelPreview)).toBe(false);
  expect(has('signed out', LESSON.excelPreview)).toBe(false);
});

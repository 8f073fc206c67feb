// Issue 37, holes 1 and 2: a password alone opens no power of an account that turned two-factor on, the
// super admin's included (supabase/migrations/20261128000100_power_second_factor.sql). The attacker
// knows the password and signs in with it (aal1); the owner's session gave the code (aal2). Each attack
// is checked by its effect in the database, and the same action from aal2 is the control.
import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { jwtPayload } from '../auth-helpers.ts';
import { useBackend } from '../harness.ts';
import { accessToken, turnOnTwoFactor } from '../mfa-helpers.ts';
import { COUPON, EMAIL, LESSON, OBJECT, QUIZ, SCHOOL, USER } from '../rls/seed.ts';

const backend = useBackend();

const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => (await backend.server.ctx.engine.query<T>(text, params)).rows;

/** The owner turns two-factor on (that session is aal2); then the attacker signs in with the password only. */
async function ownerAndAttacker(email: string): Promise<{ aal2: SupabaseClient; aal1: SupabaseClient }> {
  const aal2 = await backend.signIn(email);
  await turnOnTwoFactor(aal2);
  const aal1 = await backend.signIn(email);
  expect(jwtPayload(await accessToken(aal1)).aal).toBe('aal1');
  expect(jwtPayload(await accessToken(aal2)).aal).toBe('aal2');
  return { aal2, aal1 };
}

const RIVAL_COUPON = 'cb000000-0000-4000-8000-000000000921';
const passMark = async () => (await sql<{ pass_mark: number }>(`select pass_mark from public.quizzes where id = $1`, [QUIZ.excel]))[0]!.pass_mark;
const couponCodes = async (school: string) =>
  (await sql<{ code: string }>(`select code from public.coupons where school_id = $1 order by code`, [school])).map((r) => r.code);
const schoolExists = async (id: string) => (await sql(`select 1 from public.schools where id = $1`, [id])).length === 1;
async function throwawaySchool(slug: string): Promise<string> {
  return (await sql<{ id: string }>(`insert into public.schools (slug, name) values ($1, 'Escola Descartável') returning id::text as id`, [slug]))[0]!.id;
}

describe('the super admin with two-factor on, signed in with the password only (hole 1)', () => {
  let aal1: SupabaseClient;
  let aal2: SupabaseClient;
  beforeAll(async () => {
    await sql(
      `insert into public.coupons (id, school_id, code, kind, amount) values ($1, $2, 'RIVAL50', 'percent', 50)`,
      [RIVAL_COUPON, SCHOOL.rival],
    );
    ({ aal1, aal2 } = await ownerAndAttacker(EMAIL.super));
  });

  it("reads no quiz's correct answers, no payment, no school's coupon codes", async () => {
    const questions = await aal1.from('quiz_questions').select('id, options').eq('quiz_id', QUIZ.excel);
    expect(questions.error).toBeNull();
    expect(questions.data).toEqual([]);
    const versions = await aal1.from('quiz_versions').select('id, questions').eq('quiz_id', QUIZ.excel);
    expect(versions.data).toEqual([]);
    const payments = await aal1.from('payments').select('id, value, status');
    expect(payments.error).toBeNull();
    expect(payments.data).toEqual([]);
    const coupons = await aal1.from('coupons').select('code, school_id');
    expect(coupons.error).toBeNull();
    expect(coupons.data).toEqual([]);
    expect((await aal1.rpc('admin_coupons', { p_school_id: SCHOOL.rival })).error?.code).toBe('42501');
    expect((await aal1.rpc('admin_dashboard_counts', { p_school_id: SCHOOL.rival })).error?.code).toBe('42501');
    // Storage policies go through the same helpers: the lesson's PDF of a course is not handed out.
    const pdf = await aal1.storage.from('lesson-materials').download(OBJECT.lessonPdf);
    expect(pdf.data).toBeNull();
  });

  it('creates no coupon, changes no pass mark, deletes no school', async () => {
    const created = await aal1.from('coupons').insert({ school_id: SCHOOL.rival, code: 'GRATIS100', kind: 'percent', amount: 100 }).select('id');
    expect(created.error?.code).toBe('42501');
    expect(await couponCodes(SCHOOL.rival)).toEqual(['RIVAL50']);

    const lowered = await aal1.from('quizzes').update({ pass_mark: 1 }).eq('id', QUIZ.excel).select('pass_mark');
    expect(lowered.data ?? []).toEqual([]);
    expect(await passMark()).toBe(70);

    const school = await throwawaySchool('alvo-do-atacante');
    const deleted = await aal1.from('schools').delete().eq('id', school).select('id');
    expect(deleted.data ?? []).toEqual([]);
    expect(await schoolExists(school)).toBe(true);
  });

  it('the aal2 session does all of it (control)', async () => {
    const questions = await aal2.from('quiz_questions').select('id, options').eq('quiz_id', QUIZ.excel);
    expect(questions.data).toHaveLength(5);
    expect(JSON.stringify(questions.data)).toContain('"correct":true');
    expect((await aal2.from('payments').select('id')).data!.length).toBeGreaterThan(0);
    expect((await aal2.from('coupons').select('id')).data!.map((c) => c.id).sort()).toEqual([COUPON.bemvindo20, RIVAL_COUPON].sort());
    expect((await aal2.rpc('admin_dashboard_counts', { p_school_id: SCHOOL.rival })).error).toBeNull();
    const pdf = await aal2.storage.from('lesson-materials').download(OBJECT.lessonPdf);
    expect(pdf.error).toBeNull();
    expect(pdf.data!.size).toBeGreaterThan(0);

    const created = await aal2.from('coupons').insert({ school_id: SCHOOL.rival, code: 'PARCEIRO10', kind: 'percent', amount: 10 }).select('id');
    expect(created.error).toBeNull();
    expect(await couponCodes(SCHOOL.rival)).toEqual(['PARCEIRO10', 'RIVAL50']);

    const changed = await aal2.from('quizzes').update({ pass_mark: 60 }).eq('id', QUIZ.excel).select('pass_mark');
    expect(changed.data).toEqual([{ pass_mark: 60 }]);
    expect(await passMark()).toBe(60);

    const school = await throwawaySchool('excluida-pelo-super');
    const deleted = await aal2.from('schools').delete().eq('id', school).select('id');
    expect(deleted.data).toEqual([{ id: school }]);
    expect(await schoolExists(school)).toBe(false);
  });
});

describe("an instructor's comments with two-factor on (hole 2)", () => {
  const comments = async (author: string, prefix: string) =>
    sql<{ author_role: string | null }>(
      `select author_role from public.lesson_comments where user_id = $1 and comment like $2 order by created_at`,
      [author, `${prefix}%`],
    );

  it("from aal1 a comment is a student's: no staff badge, and 5 a minute; from aal2 the instructor's", async () => {
    const { aal1, aal2 } = await ownerAndAttacker(EMAIL.instrutor);
    // Eight at once on a preview lesson of the instructor's school (any member of the school may comment there).
    const burst = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        aal1.from('lesson_comments').insert({ user_id: USER.instrutor, lesson_id: LESSON.marketingPreview, comment: `aal1 ${i}` }).select('author_role').single(),
      ),
    );
    expect(burst.filter((r) => r.error === null).map((r) => r.data)).toEqual(Array(5).fill({ author_role: null }));
    expect(burst.filter((r) => r.error?.code === 'DC429')).toHaveLength(3);
    expect(await comments(USER.instrutor, 'aal1 ')).toEqual(Array(5).fill({ author_role: null }));

    // Control: the session that gave the code writes as the instructor, past the students' limit.
    const staffBurst = await Promise.all(
      Array.from({ length: 3 }, (_, i) =>
        aal2.from('lesson_comments').insert({ user_id: USER.instrutor, lesson_id: LESSON.marketingPreview, comment: `aal2 ${i}` }).select('author_role').single(),
      ),
    );
    expect(staffBurst.map((r) => r.error)).toEqual([null, null, null]);
    expect(await comments(USER.instrutor, 'aal2 ')).toEqual(Array(3).fill({ author_role: 'INSTRUCTOR' }));
  });

  // Issue 37's retest: the comment was staff's (written at aal2); the password alone then rewrote it, and the
  // new text kept the badge and skipped approval (20261128001000_staff_edits_and_coupon_limits.sql).
  it("from aal1 the staff's own comment written at aal2 cannot be rewritten; from aal2 it can, and aal1 edits its own student comment", async () => {
    const { aal1, aal2 } = await ownerAndAttacker(EMAIL.adminDemo);
    await sql(
      `insert into public.school_discussion_settings (school_id, comments_require_approval) values ($1, true)
       on conflict (school_id) do update set comments_require_approval = true`,
      [SCHOOL.demo],
    );
    const row = async (id: string) =>
      (await sql<{ comment: string; author_role: string | null; status: string; edited: boolean }>(
        `select comment, author_role, status, edited_at is not null as edited from public.lesson_comments where id = $1`,
        [id],
      ))[0];
    try {
      const posted = await aal2.from('lesson_comments').insert({ user_id: USER.adminDemo, lesson_id: LESSON.marketingPreview, comment: 'Resposta oficial da equipe.' }).select('id').single();
      expect(posted.error).toBeNull();
      const id = posted.data!.id as string;
      expect(await row(id)).toEqual({ comment: 'Resposta oficial da equipe.', author_role: 'SCHOOL_ADMIN', status: 'published', edited: false });

      const rewritten = await aal1.from('lesson_comments').update({ comment: 'Resposta oficial: pague a taxa em http://evil.example/pix' }).eq('id', id).select('comment');
      expect(rewritten.error).toMatchObject({ code: 'DC403', message: 'Confirme a verificação em duas etapas para editar uma resposta da equipe.' });
      expect(await row(id)).toEqual({ comment: 'Resposta oficial da equipe.', author_role: 'SCHOOL_ADMIN', status: 'published', edited: false });
      // Nor does the password alone hide it, unhide it or mark it (staff actions ask the session's power).
      expect((await aal1.rpc('hide_comment', { p_comment_id: id })).error?.code).toBe('42501');
      expect((await aal1.rpc('mark_comment_answer', { p_comment_id: id })).error?.code).toBe('42501');

      // Control: the session that gave the code edits it; it stays the school's answer, published.
      const edited = await aal2.from('lesson_comments').update({ comment: 'Resposta oficial da equipe (corrigida).' }).eq('id', id).select('comment');
      expect(edited.error).toBeNull();
      expect(await row(id)).toEqual({ comment: 'Resposta oficial da equipe (corrigida).', author_role: 'SCHOOL_ADMIN', status: 'published', edited: true });

      // Control: what aal1 writes is a student's comment, which it edits as a student (back to approval).
      const own = await aal1.from('lesson_comments').insert({ user_id: USER.adminDemo, lesson_id: LESSON.marketingPreview, comment: 'Pergunta de aal1.' }).select('id').single();
      expect(own.error).toBeNull();
      await sql(`update public.lesson_comments set status = 'published' where id = $1`, [own.data!.id]);
      expect((await aal1.from('lesson_comments').update({ comment: 'Pergunta de aal1, editada.' }).eq('id', own.data!.id).select('comment')).error).toBeNull();
      expect(await row(own.data!.id as string)).toEqual({ comment: 'Pergunta de aal1, editada.', author_role: null, status: 'pending', edited: true });
    } finally {
      await sql(`update public.school_discussion_settings set comments_require_approval = false where school_id = $1`, [SCHOOL.demo]);
    }
  });
});

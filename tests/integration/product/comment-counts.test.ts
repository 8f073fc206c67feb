// The staff's comment numbers count what the students can read (issue 45): the lesson engagement chart
// (Relatórios › a course's lessons) and the reports card "comments in the last 30 days" counted hidden
// questions, questions waiting for approval and the replies under them.
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { COURSE, LESSON, SCHOOL, USER } from '../rls/seed.ts';

const backend = useBackend();
const admin = backend.signedIn('adminDemo');
const student = backend.signedIn('aluno');

const id = (n: number) => `cc450000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const LESSON_ID = LESSON.excelProcv;

async function rpc<T>(fn: string, args: Record<string, unknown>): Promise<T> {
  const { data, error } = await admin.rpc(fn, args);
  if (error) throw new Error(`${fn}: ${error.message}`);
  return data as T;
}
const engagement = async () =>
  (await rpc<{ lesson_id: string; comments: number }[]>('admin_chart_lesson_engagement', { p_course_id: COURSE.excel })).find((r) => r.lesson_id === LESSON_ID)!.comments;
const reportCard = async () =>
  (await rpc<{ comments_last_30_days: number }[]>('admin_report_summary', { p_school_id: SCHOOL.demo, p_course_id: COURSE.excel }))[0]!.comments_last_30_days;
const seenByStudent = async () => {
  const { data, error } = await student.from('lesson_comments').select('id').eq('lesson_id', LESSON_ID);
  if (error) throw error;
  return data.map((r) => r.id).filter((c) => c.startsWith('cc450000-')).sort();
};

describe('comment counts of the reports', () => {
  it('count only the comments students can read: not hidden, not pending, not a reply under either', async () => {
    const before = { engagement: await engagement(), card: await reportCard() };
    // Written as the lesson page and the moderation leave them (by SQL, so the states are exact).
    const sql = (text: string, params: unknown[]) => backend.server.ctx.engine.query(text, params);
    const rows: [number, string, number | null, string, string | null, string][] = [
      // [id, author, parent, status, hidden_at, text]
      [1, USER.aluna, null, 'published', null, 'Como uso o PROCV com duas colunas?'],
      [2, USER.instrutor, 1, 'published', null, 'Combine as colunas numa auxiliar e procure por ela.'],
      [3, USER.aluna, null, 'pending', null, 'Pergunta esperando aprovação'],
      [4, USER.aluna, null, 'published', new Date().toISOString(), 'Pergunta ocultada pela equipe'],
      [5, USER.instrutor, 4, 'published', null, 'Resposta a uma pergunta ocultada'],
    ];
    for (const [n, user, parent, status, hidden, text] of rows) {
      await sql(
        `insert into public.lesson_comments (id, user_id, lesson_id, parent_id, status, hidden_at, comment) values ($1, $2, $3, $4, $5, $6, $7)`,
        [id(n), user, LESSON_ID, parent === null ? null : id(parent), status, hidden, text],
      );
    }
    // What an enrolled student reads of them: the published question and its reply.
    expect(await seenByStudent()).toEqual([id(1), id(2)]);
    expect((await engagement()) - before.engagement).toBe(2);
    expect((await reportCard()) - before.card).toBe(2);

    // Approving the question and showing the hidden one again: they count from then on.
    await sql(`update public.lesson_comments set status = 'published' where id = $1`, [id(3)]);
    await sql(`update public.lesson_comments set hidden_at = null where id = $1`, [id(4)]);
    expect(await seenByStudent()).toEqual([id(1), id(2), id(3), id(4), id(5)]);
    expect((await engagement()) - before.engagement).toBe(5);
    expect((await reportCard()) - before.card).toBe(5);
  });
});

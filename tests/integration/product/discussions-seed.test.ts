// Issue 45, the demo: supabase/seed.sql gives Escola Demo a few discussions under Excel Essencial's
// lessons (a question with the instructor's answer marked as the answer and a classmate's reply, a
// question a classmate answered, marked by the staff, one still unanswered) and turns its monthly ranking on, so `npm start`
// shows the feature. Each is what the lesson page, Comentários and the home's Ranking read.
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { LESSON, SCHOOL } from '../rls/seed.ts';

const backend = useBackend();
const admin = backend.signedIn('adminDemo');
const aluno = backend.signedIn('aluno');

async function must<T>(p: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(JSON.stringify(error));
  return data;
}

describe("the demo seed's discussions", () => {
  it('an enrolled student reads a question with the instructor’s answer, badged and marked, a classmate’s reply, and an open question', async () => {
    const rows = (await must(
      aluno.from('lesson_comments').select('author_name, author_role, parent_id, marked_answer_at, comment, id').eq('lesson_id', LESSON.excelVimeo).order('created_at'),
    )) as { id: string; author_name: string; author_role: string | null; parent_id: string | null; marked_answer_at: string | null }[];
    const question = rows.find((r) => r.author_name === 'Beatriz Souza' && r.parent_id === null)!;
    expect(rows.filter((r) => r.parent_id === question.id).map((r) => [r.author_name, r.author_role, r.marked_answer_at !== null])).toEqual([
      ['Igor Instrutor', 'INSTRUCTOR', true],
      ['Carlos Pereira', null, false],
    ]);
    expect(rows.filter((r) => r.parent_id === null).map((r) => r.author_name)).toEqual(['Beatriz Souza', 'Fernanda Costa']);
  });

  it('Comentários lists them for the staff, the open question under "Sem resposta"', async () => {
    const all = (await must(admin.rpc('admin_comments', { p_school_id: SCHOOL.demo, p_filter: 'all' }))) as { author_name: string }[];
    expect(all.map((c) => c.author_name)).toEqual(expect.arrayContaining(['Beatriz Souza', 'Igor Instrutor', 'Carlos Pereira', 'Daniela Lima', 'Eduardo Santos', 'Fernanda Costa']));
    const unanswered = (await must(admin.rpc('admin_comments', { p_school_id: SCHOOL.demo, p_filter: 'unanswered' }))) as { author_name: string; comment: string }[];
    expect(unanswered.map((c) => c.author_name)).toContain('Fernanda Costa');
    expect(unanswered.map((c) => c.author_name)).not.toContain('Beatriz Souza');
  });

  it('the ranking is on: the home shows this month’s top students, with Eduardo’s marked answer counting for him', async () => {
    const ranking = (await must(aluno.rpc('school_ranking'))) as { enabled: boolean; top: { name: string; answers: number; points: number }[] };
    expect(ranking.enabled).toBe(true);
    expect(ranking.top.length).toBeGreaterThan(0);
    expect(ranking.top.find((t) => t.name === 'Eduardo S.')).toMatchObject({ answers: 1 });
    // Staff are not ranked, though the instructor's answer was marked.
    expect(ranking.top.map((t) => t.name)).not.toContain('Igor I.');
  });
});

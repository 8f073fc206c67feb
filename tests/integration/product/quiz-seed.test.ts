// Issue 23, the demo: supabase/seed.sql writes the "Avaliação final" quiz of Excel Essencial directly
// (publish_quiz needs a staff caller). It must be what publish_quiz would have left: a published version
// with the same questions in the same shape, no unpublished changes, and nobody's attempt.
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { COURSE, LESSON, QUIZ } from '../rls/seed.ts';

const backend = useBackend();
const service = backend.service();
const admin = backend.signedIn('adminDemo');
const aluno = backend.signedIn('aluno');

describe("the demo seed's quiz", () => {
  it('is the published quiz of the last lesson of Excel Essencial, with 3 to 5 questions of the three kinds', async () => {
    const { data: quiz } = await service.from('quizzes').select('*').eq('id', QUIZ.excel).single();
    expect(quiz).toMatchObject({ lesson_id: LESSON.excelQuiz, course_id: COURSE.excel, pass_mark: 70, max_attempts: 3, wait_hours: 1, time_limit_minutes: null, show_answers: 'after_each_attempt', published_version_id: QUIZ.excelVersion });
    // No "Há alterações não publicadas".
    expect(Date.parse(quiz.questions_updated_at)).toBeLessThanOrEqual(Date.parse(quiz.published_at));
    const { data: modules } = await service.from('modules').select('id').eq('course_id', COURSE.excel).order('order_index', { ascending: false }).limit(1);
    const { data: lessons } = await service.from('lessons').select('id, title').eq('module_id', modules![0]!.id).order('order_index', { ascending: false }).limit(1);
    expect(lessons).toEqual([{ id: LESSON.excelQuiz, title: 'Avaliação final' }]);
    const { data: questions } = await service.from('quiz_questions').select('kind, explanation').eq('quiz_id', QUIZ.excel);
    expect(questions!.length).toBeGreaterThanOrEqual(3);
    expect(questions!.length).toBeLessThanOrEqual(5);
    expect(new Set(questions!.map((q) => q.kind))).toEqual(new Set(['single', 'multiple', 'true_false']));
    expect(questions!.every((q) => q.explanation)).toBe(true);
  });

  it('its version holds exactly what publish_quiz freezes from the questions', async () => {
    const { data: seeded } = await service.from('quiz_versions').select('number, questions').eq('id', QUIZ.excelVersion).single();
    expect(seeded!.number).toBe(1);
    const republished = await admin.rpc('publish_quiz', { p_quiz_id: QUIZ.excel });
    expect(republished.error).toBeNull();
    const { data: v2 } = await service.from('quiz_versions').select('number, questions').eq('id', republished.data.published_version_id).single();
    expect(v2!.number).toBe(2);
    expect(v2!.questions).toEqual(seeded!.questions);
  });

  it('aluno@escola-demo.com.br has not attempted it, and sees it without any correct option', async () => {
    const { data: attempts } = await service.from('quiz_attempts').select('id').eq('quiz_id', QUIZ.excel);
    expect(attempts).toEqual([]);
    const { data: state, error } = await aluno.rpc('quiz_for_student', { p_lesson_id: LESSON.excelQuiz });
    expect(error).toBeNull();
    expect(state).toMatchObject({ quiz_id: QUIZ.excel, state: 'not_started', attempts_used: 0, attempts_left: 3, open_attempt: null, attempts: [] });
    expect(state.settings).toMatchObject({ pass_mark: 70, max_attempts: 3, wait_hours: 1, question_count: 5 });
    expect(JSON.stringify(state)).not.toContain('correct');
  });
});

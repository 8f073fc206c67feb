// Staff side of quizzes (issue 23, docs/quizzes.md) as plain functions over a typed supabase-js client:
// the lesson's quiz and its draft questions (REST, staff of the course only), publish / unpublish,
// reorder and duplicate (RPCs), the question images (bucket lesson-materials, under the lesson's
// folder) and the quiz's results. The student side is api/queries.ts.
import { expectRows, type DbClient } from '@/platform/db';
import type { Tables } from '@/types/database';
import { fileExtension } from '@/platform/upload';
import type { QuestionKind, QuestionScoring, QuizSettingsValues } from '../schemas';
import type { ImportedQuestion } from '../lib/csv-import';

export type AdminQuiz = Tables<'quizzes'>;

/** One option of a question, as stored in quiz_questions.options (a type, not an interface: it is Json). */
export type QuizOption = { id: string; text: string; correct: boolean };

export type AdminQuestion = Pick<
  Tables<'quiz_questions'>,
  'id' | 'quiz_id' | 'position' | 'kind' | 'scoring' | 'statement' | 'image_path' | 'explanation'
> & { options: QuizOption[] };

export interface LessonQuiz {
  quiz: AdminQuiz | null;
  questions: AdminQuestion[];
}

/** Where a lesson's files live: {school}/{course}/{lesson}/ in lesson-materials. */
export interface QuizLessonRef {
  schoolId: string;
  courseId: string;
  lessonId: string;
}

const QUESTION_COLUMNS = 'id, quiz_id, position, kind, scoring, statement, image_path, options, explanation, created_at';

/** A random id (UUID v4 shape) for an option or an image; crypto.randomUUID needs a secure context, this does not. */
export function randomId(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The lesson's quiz (null when it has none) and its draft questions in order. */
export async function fetchLessonQuiz(client: DbClient, lessonId: string): Promise<LessonQuiz> {
  const { data, error } = await client
    .from('quizzes')
    .select(`*, quiz_questions(${QUESTION_COLUMNS})`)
    .eq('lesson_id', lessonId)
    .order('position', { referencedTable: 'quiz_questions' })
    .maybeSingle();
  if (error) throw error;
  if (!data) return { quiz: null, questions: [] };
  const { quiz_questions, ...quiz } = data;
  // publish_quiz's order: position, then creation, then id.
  const questions = [...quiz_questions]
    .sort((a, b) => a.position - b.position || a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
    .map(({ created_at: _created, options, ...q }) => ({ ...q, options: options as QuizOption[] }));
  return { quiz, questions };
}

export async function createQuiz(client: DbClient, lessonId: string): Promise<AdminQuiz> {
  const { data, error } = await client.from('quizzes').insert({ lesson_id: lessonId }).select('*').single();
  if (error) throw error;
  return data;
}

/** Updates the settings (only these columns: staff may update no other of quizzes). */
export async function saveQuizSettings(client: DbClient, quizId: string, v: QuizSettingsValues): Promise<AdminQuiz> {
  const settings = {
    pass_mark: v.pass_mark,
    max_attempts: v.max_attempts,
    wait_hours: v.wait_hours,
    time_limit_minutes: v.time_limit_minutes,
    late_policy: v.late_policy,
    shuffle_questions: v.shuffle_questions,
    shuffle_options: v.shuffle_options,
    show_answers: v.show_answers,
  };
  const [row] = expectRows(
    await client.from('quizzes').update(settings).eq('id', quizId).select('*'),
    'Avaliação não encontrada ou sem permissão para alterá-la',
  );
  return row!;
}

/** Deletes the quiz with its questions, versions and every student's attempts (on delete cascade). */
export async function deleteQuiz(client: DbClient, quizId: string): Promise<void> {
  expectRows(
    await client.from('quizzes').delete().eq('id', quizId).select('id'),
    'Avaliação não encontrada ou sem permissão para excluí-la',
  );
}

/** Freezes the draft as a new version students take; refused in pt-BR when a question is incomplete. */
export async function publishQuiz(client: DbClient, quizId: string): Promise<AdminQuiz> {
  const { data, error } = await client.rpc('publish_quiz', { p_quiz_id: quizId }).single();
  if (error) throw error;
  return data;
}

export async function unpublishQuiz(client: DbClient, quizId: string): Promise<AdminQuiz> {
  const { data, error } = await client.rpc('unpublish_quiz', { p_quiz_id: quizId }).single();
  if (error) throw error;
  return data;
}

export interface QuestionValues {
  kind: QuestionKind;
  scoring: QuestionScoring;
  statement: string;
  options: QuizOption[];
  explanation: string | null;
  image_path: string | null;
}

const questionRow = (v: QuestionValues) => ({
  kind: v.kind,
  scoring: v.scoring,
  statement: v.statement,
  options: v.options,
  explanation: v.explanation?.trim() || null,
  image_path: v.image_path,
});

/** Updates the question `id`, or adds one to the quiz at `position`. */
export async function saveQuestion(
  client: DbClient,
  { id, quizId, position, values }: { id?: string; quizId: string; position: number; values: QuestionValues },
): Promise<void> {
  if (id) {
    expectRows(
      await client.from('quiz_questions').update(questionRow(values)).eq('id', id).select('id'),
      'Pergunta não encontrada ou sem permissão para alterá-la',
    );
    return;
  }
  const { error } = await client
    .from('quiz_questions')
    .insert({ ...questionRow(values), quiz_id: quizId, position })
    .select('id')
    .single();
  if (error) throw error;
}

export async function deleteQuestion(client: DbClient, questionId: string): Promise<void> {
  expectRows(
    await client.from('quiz_questions').delete().eq('id', questionId).select('id'),
    'Pergunta não encontrada ou sem permissão para excluí-la',
  );
}

/** A copy right after the question (new option ids). */
export async function duplicateQuestion(client: DbClient, questionId: string): Promise<void> {
  const { error } = await client.rpc('duplicate_quiz_question', { p_question_id: questionId }).single();
  if (error) throw error;
}

/** Positions 0..n-1 in this order (the list must name every question of the quiz once). */
export async function reorderQuestions(client: DbClient, quizId: string, questionIds: string[]): Promise<void> {
  const { error } = await client.rpc('reorder_quiz_questions', { p_quiz_id: quizId, p_question_ids: questionIds });
  if (error) throw error;
}

/** The imported questions after the existing ones, in one request: all of them or none. */
export async function importQuestions(
  client: DbClient,
  { quizId, startPosition, rows }: { quizId: string; startPosition: number; rows: ImportedQuestion[] },
): Promise<number> {
  const { error } = await client.from('quiz_questions').insert(
    rows.map((r, i) => ({
      quiz_id: quizId,
      position: startPosition + i,
      kind: r.kind,
      scoring: 'all_or_nothing' as const,
      statement: r.statement,
      explanation: r.explanation,
      options: r.options.map((o): QuizOption => ({ id: randomId(), text: o.text, correct: o.correct })),
    })),
  );
  if (error) throw error;
  return rows.length;
}

/** Stores a question's image under the lesson's folder: {school}/{course}/{lesson}/quiz-{uuid}.{ext}. */
export async function uploadQuestionImage(client: DbClient, lesson: QuizLessonRef, file: File): Promise<string> {
  const ext = fileExtension(file.name) || file.type.split('/')[1] || 'png';
  const path = `${lesson.schoolId}/${lesson.courseId}/${lesson.lessonId}/quiz-${randomId()}.${ext}`;
  const { error } = await client.storage
    .from('lesson-materials')
    .upload(path, file, { contentType: file.type || undefined });
  if (error) throw error;
  return path;
}

/** Removes an image that no question came to use (its question's save was refused). */
export async function removeQuestionImage(client: DbClient, path: string): Promise<void> {
  await client.storage.from('lesson-materials').remove([path]);
}

/** A short-lived link to a question's image, for the editor's preview. */
export async function questionImageUrl(client: DbClient, path: string): Promise<string> {
  const { data, error } = await client.storage.from('lesson-materials').createSignedUrl(path, 3600);
  if (error) throw error;
  return data.signedUrl;
}

export type QuizResults = {
  attempts: number;
  students: number;
  students_passed: number;
  /** null before any finished attempt. */
  average_score: number | null;
  pass_rate: number | null;
  most_missed: { question_id: string; statement: string | null; answered: number; missed: number; miss_rate: number }[];
};

export async function fetchQuizResults(client: DbClient, quizId: string): Promise<QuizResults> {
  const { data, error } = await client.rpc('quiz_results', { p_quiz_id: quizId });
  if (error) throw error;
  return data as QuizResults;
}

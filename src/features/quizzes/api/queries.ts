// The student's quiz (issue 23, docs/quizzes.md) as plain functions over a supabase-js client. Every
// read and write is an RPC of supabase/migrations/20261126000900_quiz_attempts.sql: students have no
// read on the questions, so the correct options reach them only in a graded attempt's review, as the
// quiz's show_answers allows. Grading, the attempt limit, the wait and the time limit are decided there.
import type { DbClient } from '@/platform/db';
import { signLessonFile } from '@/concepts/lesson-files';
import type { Json, Tables } from '@/types/database';

export { fetchQuizStates, type QuizStateRow, type QuizState } from '@/concepts/quiz-state';
import type { QuizState } from '@/concepts/quiz-state';

export type QuestionKind = Tables<'quiz_questions'>['kind'];
export type ShowAnswers = Tables<'quizzes'>['show_answers'];
export type LatePolicy = Tables<'quizzes'>['late_policy'];

/** The student's answers: {question_id: [option_id]}. */
export type QuizAnswers = Record<string, string[]>;

export type QuizQuestion = {
  id: string;
  kind: QuestionKind;
  /** Markdown, rendered through src/utils/sanitize.ts. */
  statement: string;
  /** In the lesson-materials bucket, signed through sign-lesson-file. */
  image_path: string | null;
  options: { id: string; text: string }[];
};

export type QuizOpenAttempt = {
  id: string;
  number: number;
  started_at: string;
  deadline_at: string | null;
  /** The server's clock when it answered. */
  now: string;
  answers: QuizAnswers;
  /** In this student's order. */
  questions: QuizQuestion[];
};

export type QuizReviewItem = {
  question_id: string;
  kind: QuestionKind;
  statement: string;
  image_path: string | null;
  options: { id: string; text: string; correct: boolean }[];
  chosen: string[];
  is_correct: boolean;
  /** 0–1 (partial credit). */
  earned: number;
  explanation: string | null;
};

export type QuizAttemptSummary = {
  id: string;
  number: number;
  started_at: string;
  submitted_at: string | null;
  status: 'graded' | 'expired';
  score: number;
  passed: boolean;
  /** null unless show_answers allows it. */
  review: QuizReviewItem[] | null;
};

/** A type (not an interface): a jsonb answer converts to it. */
export type QuizForStudent = {
  quiz_id: string;
  lesson_id: string;
  settings: {
    pass_mark: number;
    max_attempts: number | null;
    wait_hours: number;
    time_limit_minutes: number | null;
    show_answers: ShowAnswers;
    late_policy: LatePolicy;
    question_count: number;
  };
  state: QuizState;
  attempts_used: number;
  attempts_left: number | null;
  next_attempt_at: string | null;
  best_score: number | null;
  notice: 'late_graded' | 'late_refused' | null;
  open_attempt: QuizOpenAttempt | null;
  /** Newest first. */
  attempts: QuizAttemptSummary[];
  /** Not the server's: this browser's clock when the answer arrived, to run the timer on the server's `now`. */
  received_at: number;
};

type JsonObject = { [key: string]: Json | undefined };

/** The RPCs answer jsonb (typed Json): the shape is docs/quizzes.md's QuizForStudent. */
function toQuiz(data: Json): QuizForStudent {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error('Resposta inesperada do servidor.');
  const quiz = data as JsonObject as Omit<QuizForStudent, 'received_at'>;
  return { ...quiz, attempts: quiz.attempts ?? [], received_at: Date.now() };
}

/** The lesson's published quiz as this student sees it; null when the lesson has none (or no access). */
export async function fetchQuizForStudent(client: DbClient, lessonId: string): Promise<QuizForStudent | null> {
  const { data, error } = await client.rpc('quiz_for_student', { p_lesson_id: lessonId });
  if (error) {
    if (error.code === '22P02') return null;
    throw error;
  }
  return data === null ? null : toQuiz(data);
}

/** Starts an attempt (or answers the open one). Refusals are pt-BR: passed, no attempts left, the wait. */
export async function startQuizAttempt(client: DbClient, quizId: string): Promise<QuizForStudent> {
  const { data, error } = await client.rpc('start_quiz_attempt', { p_quiz_id: quizId });
  if (error) throw error;
  return toQuiz(data);
}

/** Autosave: the answers so far; refused once the time is over. Answers when it saved. */
export async function saveQuizAnswers(client: DbClient, attemptId: string, answers: QuizAnswers): Promise<string> {
  const { data, error } = await client.rpc('save_quiz_answers', { p_attempt_id: attemptId, p_answers: answers });
  if (error) throw error;
  return data;
}

/** Submits and grades the attempt; the graded attempt comes first in `attempts`. */
export async function submitQuizAttempt(client: DbClient, attemptId: string, answers: QuizAnswers): Promise<QuizForStudent> {
  const { data, error } = await client.rpc('submit_quiz_attempt', { p_attempt_id: attemptId, p_answers: answers });
  if (error) throw error;
  return toQuiz(data);
}

/** A question's image (lesson-materials, under the lesson's folder), as the lesson's materials are signed. */
export function signQuizImage(client: DbClient, path: string, expiresIn = 60 * 60): Promise<string> {
  return signLessonFile(client, 'lesson-materials', path, expiresIn);
}

// TanStack Query over the staff side of quizzes (admin-queries.ts). Keys:
//   ['admin-quizzes', 'lesson', lessonId]   the lesson's quiz and its draft questions (the Avaliação tab)
//   ['admin-quizzes', 'results', quizId]     the quiz's results card
//   ['admin-quizzes', 'image', path]         a signed link to a question's image
// Every write refreshes the editor and the student side's quizzes (rootKeys.quizzes).
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/platform/toast';
import { supabase } from '@/platform/supabase';
import { rootKeys } from '@/platform/query-keys';
import type { QuizSettingsValues } from '../schemas';
import type { ImportedQuestion } from '../lib/csv-import';
import {
  createQuiz,
  deleteQuestion,
  deleteQuiz,
  duplicateQuestion,
  fetchLessonQuiz,
  fetchQuizResults,
  importQuestions,
  publishQuiz,
  questionImageUrl,
  removeQuestionImage,
  reorderQuestions,
  saveQuestion,
  saveQuizSettings,
  unpublishQuiz,
  uploadQuestionImage,
  type AdminQuestion,
  type AdminQuiz,
  type LessonQuiz,
  type QuestionValues,
  type QuizLessonRef,
  type QuizResults,
} from './admin-queries';

export type { AdminQuestion, AdminQuiz, LessonQuiz, QuestionValues, QuizLessonRef, QuizResults };

export const adminQuizKeys = {
  all: rootKeys.adminQuizzes,
  lesson: (lessonId: string) => [...rootKeys.adminQuizzes, 'lesson', lessonId] as const,
  results: (quizId: string) => [...rootKeys.adminQuizzes, 'results', quizId] as const,
  image: (path: string) => [...rootKeys.adminQuizzes, 'image', path] as const,
};

export const lessonQuizQuery = (lessonId: string) =>
  queryOptions({ queryKey: adminQuizKeys.lesson(lessonId), queryFn: () => fetchLessonQuiz(supabase, lessonId) });

export function useLessonQuiz(lessonId: string) {
  return useQuery(lessonQuizQuery(lessonId));
}

export function useQuizResults(quizId: string) {
  return useQuery({ queryKey: adminQuizKeys.results(quizId), queryFn: () => fetchQuizResults(supabase, quizId) });
}

/** A signed link to the question's image (lesson-materials is private), kept for 50 of its 60 minutes. */
export function useQuestionImageUrl(path: string | null) {
  return useQuery({
    queryKey: adminQuizKeys.image(path ?? ''),
    queryFn: () => questionImageUrl(supabase, path!),
    enabled: !!path,
    staleTime: 50 * 60_000,
  });
}

function useInvalidateQuizzes() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminQuizKeys.all }),
      queryClient.invalidateQueries({ queryKey: rootKeys.quizzes }),
    ]);
}

export function useCreateQuiz(lessonId: string) {
  const invalidate = useInvalidateQuizzes();
  return useMutation({
    mutationFn: () => createQuiz(supabase, lessonId),
    meta: { errorTitle: 'Erro ao criar avaliação' },
    onSuccess: () => {
      toast.success('Avaliação criada! Adicione as perguntas e publique.');
      void invalidate();
    },
  });
}

export function useSaveQuizSettings(quizId: string) {
  const invalidate = useInvalidateQuizzes();
  return useMutation({
    mutationFn: (values: QuizSettingsValues) => saveQuizSettings(supabase, quizId, values),
    meta: { errorTitle: 'Erro ao salvar configurações' },
    onSuccess: () => {
      toast.success('Configurações salvas!');
      void invalidate();
    },
  });
}

export function usePublishQuiz() {
  const invalidate = useInvalidateQuizzes();
  return useMutation({
    mutationFn: (quizId: string) => publishQuiz(supabase, quizId),
    meta: { errorTitle: 'Não foi possível publicar a avaliação' },
    onSuccess: () => {
      toast.success('Avaliação publicada!');
      void invalidate();
    },
  });
}

export function useUnpublishQuiz() {
  const invalidate = useInvalidateQuizzes();
  return useMutation({
    mutationFn: (quizId: string) => unpublishQuiz(supabase, quizId),
    meta: { errorTitle: 'Erro ao despublicar avaliação' },
    onSuccess: () => {
      toast.success('Avaliação despublicada.');
      void invalidate();
    },
  });
}

export function useDeleteQuiz() {
  const invalidate = useInvalidateQuizzes();
  return useMutation({
    mutationFn: (quizId: string) => deleteQuiz(supabase, quizId),
    meta: { errorTitle: 'Erro ao excluir avaliação' },
    onSuccess: () => {
      toast.success('Avaliação excluída!');
      void invalidate();
    },
  });
}

export interface SaveQuestionInput {
  id?: string;
  quizId: string;
  position: number;
  values: QuestionValues;
  /** A new image to store first (its path then replaces values.image_path). */
  image?: { lesson: QuizLessonRef; file: File } | null;
}

/**
 * Stores the new image (if any), then saves the question; the image is removed again if the save is
 * refused. A replaced or removed image stays stored: a published version or a duplicate may show it.
 */
export function useSaveQuestion() {
  const invalidate = useInvalidateQuizzes();
  return useMutation({
    mutationFn: async ({ id, quizId, position, values, image }: SaveQuestionInput) => {
      const path = image ? await uploadQuestionImage(supabase, image.lesson, image.file) : values.image_path;
      try {
        await saveQuestion(supabase, { id, quizId, position, values: { ...values, image_path: path } });
      } catch (e) {
        if (image && path) await removeQuestionImage(supabase, path);
        throw e;
      }
    },
    meta: { errorTitle: 'Erro ao salvar pergunta' },
    onSuccess: (_d, { id }) => {
      toast.success(id ? 'Pergunta atualizada!' : 'Pergunta adicionada!');
      void invalidate();
    },
  });
}

export function useDuplicateQuestion() {
  const invalidate = useInvalidateQuizzes();
  return useMutation({
    mutationFn: (questionId: string) => duplicateQuestion(supabase, questionId),
    meta: { errorTitle: 'Erro ao duplicar pergunta' },
    onSuccess: () => {
      toast.success('Pergunta duplicada!');
      void invalidate();
    },
  });
}

export function useDeleteQuestion() {
  const invalidate = useInvalidateQuizzes();
  return useMutation({
    mutationFn: (questionId: string) => deleteQuestion(supabase, questionId),
    meta: { errorTitle: 'Erro ao excluir pergunta' },
    onSuccess: () => {
      toast.success('Pergunta excluída!');
      void invalidate();
    },
  });
}

export function useImportQuestions() {
  const invalidate = useInvalidateQuizzes();
  return useMutation({
    mutationFn: (input: { quizId: string; startPosition: number; rows: ImportedQuestion[] }) =>
      importQuestions(supabase, input),
    meta: { errorTitle: 'Erro ao importar perguntas' },
    onSuccess: (count) => {
      toast.success(count === 1 ? '1 pergunta importada!' : `${count} perguntas importadas!`);
      void invalidate();
    },
  });
}

/** Saves a new order in one request; the list shows it at once and is restored on failure. */
export function useReorderQuestions(lessonId: string) {
  const queryClient = useQueryClient();
  const key = adminQuizKeys.lesson(lessonId);
  return useMutation({
    mutationFn: ({ quizId, questions }: { quizId: string; questions: AdminQuestion[] }) =>
      reorderQuestions(
        supabase,
        quizId,
        questions.map((q) => q.id),
      ),
    meta: { errorTitle: 'Erro ao salvar a nova ordem' },
    onMutate: async ({ questions }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<LessonQuiz>(key);
      if (previous) queryClient.setQueryData<LessonQuiz>(key, { ...previous, questions });
      return { previous };
    },
    onError: (_error, _v, ctx) => {
      if (ctx?.previous) queryClient.setQueryData(key, ctx.previous);
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: adminQuizKeys.all }),
  });
}

// TanStack Query over the student's quiz (issue 23). Keys:
//   ['quizzes', 'student', lessonId, userId]       the lesson's quiz as this student sees it (QuizForStudent)
//   ['quizzes', 'states', courseId | 'all', userId] my_quiz_states: the course page, side panel, home
//   ['quizzes', 'image', path]                      signed URL of a question's image
// Starting and submitting answer the new QuizForStudent, which replaces the cached one. A pass
// completes the lesson in the database: the course, lesson and certificate caches are refreshed.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { rootKeys } from '@/platform/query-keys';
import { supabase } from '@/platform/supabase';
import {
  fetchQuizForStudent,
  fetchQuizStates,
  saveQuizAnswers,
  signQuizImage,
  startQuizAttempt,
  submitQuizAttempt,
  type QuizAnswers,
  type QuizForStudent,
} from './queries';

export const quizKeys = {
  all: rootKeys.quizzes,
  students: () => [...quizKeys.all, 'student'] as const,
  student: (lessonId: string, userId: string) => [...quizKeys.students(), lessonId, userId] as const,
  states: () => [...quizKeys.all, 'states'] as const,
  stateList: (courseId: string | null, userId: string) => [...quizKeys.states(), courseId ?? 'all', userId] as const,
  image: (path: string) => [...quizKeys.all, 'image', path] as const,
};

/** Lifetime asked for a question image's signed URL; the cached one is replaced well before it ends. */
const IMAGE_URL_TTL_SEC = 60 * 60;

export const quizForStudentQuery = (lessonId: string, userId: string) =>
  queryOptions({
    queryKey: quizKeys.student(lessonId, userId),
    queryFn: () => fetchQuizForStudent(supabase, lessonId),
  });

export const quizStatesQuery = (courseId: string | null, userId: string) =>
  queryOptions({
    queryKey: quizKeys.stateList(courseId, userId),
    queryFn: () => fetchQuizStates(supabase, courseId),
  });

/** The lesson's quiz (null: none published). */
export function useQuizForStudent(lessonId: string, userId: string | null | undefined, enabled = true) {
  return useQuery({ ...quizForStudentQuery(lessonId, userId ?? ''), enabled: enabled && !!lessonId && !!userId });
}

/** The student's quiz states in a course (`courseId` null: in every course). */
export function useQuizStates(courseId: string | null, userId: string | null | undefined, enabled = true) {
  return useQuery({ ...quizStatesQuery(courseId, userId ?? ''), enabled: enabled && !!userId && courseId !== '' });
}

/** The quiz side of the lesson player: the lesson's quiz (null for most lessons) and the student's quiz
 * states in the course (its side panel). */
export function useLessonQuiz(courseId: string, lessonId: string, userId: string | undefined) {
  const quiz = useQuizForStudent(lessonId, userId);
  const quizStates = useQuizStates(courseId, userId);
  return { quiz, quizStates: quizStates.data };
}

export function useQuizImage(path: string | null) {
  return useQuery({
    queryKey: quizKeys.image(path ?? ''),
    queryFn: () => signQuizImage(supabase, path!, IMAGE_URL_TTL_SEC),
    enabled: !!path,
    staleTime: (IMAGE_URL_TTL_SEC - 10 * 60) * 1000,
    gcTime: (IMAGE_URL_TTL_SEC - 10 * 60) * 1000,
    retry: false,
  });
}

export function useStartQuizAttempt(lessonId: string, userId: string | null | undefined) {
  const queryClient = useQueryClient();
  const key = quizKeys.student(lessonId, userId ?? '');
  return useMutation({
    mutationFn: (quizId: string) => startQuizAttempt(supabase, quizId),
    meta: { errorTitle: 'Não foi possível iniciar a avaliação' },
    onSuccess: (quiz) => {
      queryClient.setQueryData<QuizForStudent | null>(key, quiz);
      void queryClient.invalidateQueries({ queryKey: quizKeys.states() });
    },
    // Refused (a wait, no attempts left, passed in another tab): show the state the server has now.
    onError: () => void queryClient.invalidateQueries({ queryKey: key }),
  });
}

/** Autosave of the answers (the page debounces it); the cached attempt keeps them for a remount. */
export function useSaveQuizAnswers(lessonId: string, userId: string | null | undefined) {
  const queryClient = useQueryClient();
  const key = quizKeys.student(lessonId, userId ?? '');
  return useMutation({
    mutationFn: ({ attemptId, answers }: { attemptId: string; answers: QuizAnswers }) => saveQuizAnswers(supabase, attemptId, answers),
    meta: { errorTitle: 'Erro ao salvar respostas' },
    onSuccess: (_savedAt, { attemptId, answers }) => {
      queryClient.setQueryData<QuizForStudent | null>(key, (old) =>
        old?.open_attempt?.id === attemptId ? { ...old, open_attempt: { ...old.open_attempt, answers } } : old,
      );
    },
  });
}

export function useSubmitQuizAttempt(lessonId: string, userId: string | null | undefined) {
  const queryClient = useQueryClient();
  const key = quizKeys.student(lessonId, userId ?? '');
  return useMutation({
    mutationFn: ({ attemptId, answers }: { attemptId: string; answers: QuizAnswers }) => submitQuizAttempt(supabase, attemptId, answers),
    meta: { errorTitle: 'Erro ao enviar respostas' },
    onSuccess: (quiz) => {
      queryClient.setQueryData<QuizForStudent | null>(key, quiz);
      void queryClient.invalidateQueries({ queryKey: quizKeys.states() });
      if (quiz.state === 'passed') {
        // The database completed the lesson: the side panel's check, the course progress and the
        // certificate button follow.
        for (const root of [rootKeys.courses, rootKeys.lessons, rootKeys.certificates]) void queryClient.invalidateQueries({ queryKey: root });
      }
    },
    onError: () => void queryClient.invalidateQueries({ queryKey: key }),
  });
}

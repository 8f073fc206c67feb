// The quiz player under a lesson (issue 23), composed by src/app/routes/lesson.tsx into features/lessons'
// LessonPage: its own chunk (the player, marked and DOMPurify), downloaded only by a lesson with a quiz.
import { lazy, Suspense } from 'react';

const QuizSection = lazy(() => import('./quiz-section'));

export function LessonQuizSection({ lessonId, userId }: { lessonId: string; userId: string }) {
  return (
    <Suspense
      fallback={
        <div className="h-40 animate-pulse rounded-xl border border-white/10 bg-slate-900/60" aria-busy="true" />
      }
    >
      <QuizSection lessonId={lessonId} userId={userId} />
    </Suspense>
  );
}

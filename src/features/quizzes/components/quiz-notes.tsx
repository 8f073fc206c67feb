// The student's quiz states on the home page (issue 23): under a course card, its quizzes in one line;
// under "Continuar assistindo", the lesson's quiz (with the card's gap above it). Every note reads the one request of the student's
// quiz states in all their courses (TanStack Query shares it among the notes), asked once a note is drawn.
import { QuizStateBadge, QuizSummary } from '@/concepts/quiz-state-badge';
import { stateOfRow } from '@/concepts/quiz-state';
import { useQuizStates } from '../api/hooks';

export function CourseQuizNote({ courseId, userId }: { courseId: string; userId: string | undefined }) {
  const rows = useQuizStates(null, userId).data?.filter((r) => r.course_id === courseId) ?? [];
  return rows.length > 0 ? <QuizSummary rows={rows} /> : null;
}

export function LessonQuizNote({ lessonId, userId }: { lessonId: string; userId: string | undefined }) {
  const row = useQuizStates(null, userId).data?.find((r) => r.lesson_id === lessonId);
  return row ? (
    <div className="mt-1.5">
      <QuizStateBadge tone="dark" value={stateOfRow(row)} />
    </div>
  ) : null;
}

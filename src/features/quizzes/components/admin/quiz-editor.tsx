// The Avaliação tab of the lesson dialog (issue 23): create the lesson's quiz, then its publish state,
// settings, questions and results. The content editor (features/course-content) shows it through the
// route (src/app/routes/admin/course-content.tsx), like the Materiais tab.
import { ClipboardCheck, Loader2, Plus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { useCreateQuiz, useLessonQuiz, type QuizLessonRef } from '../../api/admin-hooks';
import { QuestionList } from './question-list';
import { QuizResultsCard } from './quiz-results';
import { QuizSettingsForm } from './quiz-settings-form';
import { QuizStatusBar } from './quiz-status';

export function QuizEditor(lesson: QuizLessonRef) {
  const data = useLessonQuiz(lesson.lessonId);
  const create = useCreateQuiz(lesson.lessonId);

  if (data.isPending) return <Skeleton className="h-40 rounded-lg" />;
  if (data.isError) return <LoadError title="Não foi possível carregar a avaliação" onRetry={data.refetch} />;
  const { quiz, questions } = data.data;
  if (!quiz) {
    return (
      <EmptyState
        icon={ClipboardCheck}
        title="Esta aula não tem avaliação"
        description="Com uma avaliação publicada, o aluno só conclui a aula (e recebe o certificado do curso) quando é aprovado."
        action={
          <Button type="button" disabled={create.isPending} onClick={() => create.mutate()}>
            {create.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Plus aria-hidden="true" />}
            Criar avaliação
          </Button>
        }
      />
    );
  }
  return (
    <div className="grid min-w-0 gap-6">
      <QuizStatusBar quiz={quiz} />
      <QuizSettingsForm quiz={quiz} />
      <QuestionList quizId={quiz.id} questions={questions} lesson={lesson} />
      <QuizResultsCard quizId={quiz.id} />
    </div>
  );
}

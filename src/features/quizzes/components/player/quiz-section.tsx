// The lesson's "Avaliação" (issue 23), after its video and content: the quiz's facts and start
// button, the attempt being answered, or the result. Its own chunk (the lesson route loads it lazily,
// with marked and DOMPurify for the statements): a lesson without a quiz never downloads it.
import { useEffect, useRef } from 'react';
import { ClipboardCheck } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { QuizStateBadge } from '@/concepts/quiz-state-badge';
import { useQuizForStudent } from '../../api/hooks';
import type { QuizForStudent, QuizOpenAttempt } from '../../api/queries';
import { QuizAttempt } from './quiz-attempt';
import { QuizOverview } from './quiz-overview';

export default function QuizSection({ lessonId, userId }: { lessonId: string; userId: string }) {
  const quiz = useQuizForStudent(lessonId, userId);
  const data = quiz.data;
  const open = data?.open_attempt ?? null;

  // Right after a submission the result's heading takes the focus (the attempt's questions are gone).
  const result = useRef<HTMLHeadingElement>(null);
  const hadOpen = useRef<string | null>(null);
  useEffect(() => {
    if (hadOpen.current && !open) result.current?.focus();
    hadOpen.current = open?.id ?? null;
  }, [open]);

  if (quiz.isSuccess && !data) return null;
  return (
    <section id="avaliacao" aria-labelledby="avaliacao-titulo" className="scroll-mt-20 rounded-xl border border-white/10 bg-slate-900/60 p-4 sm:p-6" data-testid="quiz-section">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h2 id="avaliacao-titulo" className="flex items-center gap-2 text-lg font-semibold text-white">
          <ClipboardCheck className="size-5 text-primary-on-dark" aria-hidden="true" />
          Avaliação
        </h2>
        {/* Passed or failed, the result below says it (issue 46: once, where it belongs). */}
        {data && (data.state === 'not_started' || data.state === 'in_progress') && <QuizStateBadge tone="dark" value={data} />}
      </div>
      {quiz.isPending ? (
        <div className="grid gap-3" aria-busy="true">
          <Skeleton className="h-14 w-full bg-white/10" />
          <Skeleton className="h-10 w-48 bg-white/10" />
        </div>
      ) : quiz.isError ? (
        <div role="alert" className="flex flex-col items-start gap-3">
          <p className="text-sm text-slate-300">Não foi possível carregar a avaliação.</p>
          <Button variant="outline" className="border-white/15 bg-white/5 text-slate-100 hover:bg-white/10 hover:text-white" onClick={() => void quiz.refetch()}>
            Tentar novamente
          </Button>
        </div>
      ) : open ? (
        <QuizAttempt key={open.id} quiz={data as QuizForStudent & { open_attempt: QuizOpenAttempt }} lessonId={lessonId} userId={userId} />
      ) : (
        <QuizOverview quiz={data!} lessonId={lessonId} userId={userId} resultRef={result} />
      )}
    </section>
  );
}

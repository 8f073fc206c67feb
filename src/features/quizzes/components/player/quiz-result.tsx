// An attempt's result: the score, passed or not, the late-submission notice, and per question right
// or wrong with the correct options and the explanation when the quiz's show_answers allows it
// (`review`); and the list of the student's attempts.
import { forwardRef } from 'react';
import { CheckCircle2, CircleX, MinusCircle } from 'lucide-react';
import { formatQuizMoment, formatScore } from '@/concepts/quiz-state';
import { cn } from '@/utils/cn';
import type { QuizAttemptSummary, QuizForStudent, QuizReviewItem } from '../../api/queries';
import { QuizImage, QuizStatement } from './quiz-statement';

const NOTICE_TEXT = {
  late_graded: 'O tempo acabou: corrigimos as respostas salvas até o fim do tempo.',
  late_refused: 'O tempo acabou e o envio não foi aceito.',
} as const;

function ReviewQuestion({ item, number }: { item: QuizReviewItem; number: number }) {
  const partial = !item.is_correct && item.earned > 0;
  const Icon = item.is_correct ? CheckCircle2 : partial ? MinusCircle : CircleX;
  const verdict = item.is_correct ? 'Certa' : partial ? `Parcialmente certa (${formatScore(item.earned * 100)})` : 'Errada';
  return (
    <li className="grid gap-3 rounded-lg border border-white/10 bg-white/5 p-3 sm:p-4" data-testid="quiz-review-item">
      <p className={cn('flex items-center gap-1.5 text-sm font-semibold', item.is_correct ? 'text-emerald-300' : partial ? 'text-amber-300' : 'text-red-300')}>
        <Icon className="size-4 shrink-0" aria-hidden="true" />
        Pergunta {number}: {verdict}
      </p>
      <QuizStatement statement={item.statement} />
      {item.image_path && <QuizImage path={item.image_path} alt={`Imagem da pergunta ${number}`} />}
      <ul className="grid gap-1.5">
        {item.options.map((o) => {
          const chosen = item.chosen.includes(o.id);
          return (
            <li
              key={o.id}
              className={cn(
                'flex items-start gap-2 rounded-md px-2.5 py-2 text-sm ring-1',
                o.correct ? 'bg-emerald-400/10 text-emerald-100 ring-emerald-400/30' : chosen ? 'bg-red-400/10 text-red-100 ring-red-400/30' : 'text-slate-300 ring-white/10',
              )}
            >
              <span className="min-w-0 flex-1 break-words">{o.text}</span>
              <span className="shrink-0 text-xs font-medium">
                {[chosen && 'Sua resposta', o.correct && 'Correta'].filter(Boolean).join(' · ')}
              </span>
            </li>
          );
        })}
      </ul>
      {item.explanation && (
        <div className="rounded-md bg-sky-400/10 px-3 py-2 text-sm text-sky-100 ring-1 ring-sky-400/20">
          <p className="font-semibold">Explicação</p>
          <QuizStatement statement={item.explanation} className="text-sm text-sky-100" />
        </div>
      )}
    </li>
  );
}

function hiddenReviewText(quiz: QuizForStudent): string {
  if (quiz.settings.show_answers === 'after_passing') return 'As respostas corretas aparecem quando você for aprovado.';
  return 'As respostas corretas desta avaliação não são divulgadas.';
}

/** The newest attempt's score, passed or not, and the late-submission notice. The heading takes the focus right after a submission. */
export const QuizResult = forwardRef<HTMLHeadingElement, { quiz: QuizForStudent; attempt: QuizAttemptSummary; notice: QuizForStudent['notice'] }>(function QuizResult(
  { quiz, attempt, notice },
  ref,
) {
  const late = notice ?? (attempt.status === 'expired' ? 'late_refused' : null);
  return (
    <section aria-labelledby="quiz-result-title" className="grid gap-4" data-testid="quiz-result">
      <div
        className={cn(
          'flex flex-col gap-2 rounded-xl p-4 ring-1 sm:flex-row sm:items-center sm:justify-between',
          attempt.passed ? 'bg-emerald-400/10 ring-emerald-400/30' : 'bg-red-400/10 ring-red-400/30',
        )}
      >
        <div>
          <h3 ref={ref} id="quiz-result-title" tabIndex={-1} className="text-lg font-bold text-white outline-none">
            Sua nota: {formatScore(attempt.score)}
          </h3>
          <p className="text-sm text-slate-300">
            Tentativa {attempt.number} · nota mínima {formatScore(quiz.settings.pass_mark)}
          </p>
        </div>
        <p className={cn('inline-flex items-center gap-1.5 text-base font-semibold', attempt.passed ? 'text-emerald-300' : 'text-red-300')} data-testid="quiz-verdict">
          {attempt.passed ? <CheckCircle2 className="size-5" aria-hidden="true" /> : <CircleX className="size-5" aria-hidden="true" />}
          {attempt.passed ? 'Aprovado' : 'Reprovado'}
        </p>
      </div>
      {late && (
        <p role="status" className="rounded-lg bg-amber-400/15 px-3 py-2 text-sm text-amber-200 ring-1 ring-amber-400/30">
          {NOTICE_TEXT[late]}
        </p>
      )}
    </section>
  );
});

/** Per question right or wrong, with the correct options and the explanation, when show_answers allows it. */
export function QuizReview({ quiz, attempt }: { quiz: QuizForStudent; attempt: QuizAttemptSummary }) {
  if (!attempt.review) return attempt.status === 'graded' ? <p className="text-sm text-slate-400">{hiddenReviewText(quiz)}</p> : null;
  return (
    <section aria-labelledby="quiz-review-title" className="grid gap-2">
      <h3 id="quiz-review-title" className="text-sm font-semibold text-white">
        Correção da tentativa {attempt.number}
      </h3>
      <ol className="grid gap-3">
        {attempt.review.map((item, i) => (
          <ReviewQuestion key={item.question_id} item={item} number={i + 1} />
        ))}
      </ol>
    </section>
  );
}

export function AttemptList({ attempts }: { attempts: QuizAttemptSummary[] }) {
  return (
    <section aria-labelledby="quiz-attempts-title" className="grid gap-2">
      <h3 id="quiz-attempts-title" className="text-sm font-semibold text-white">
        Suas tentativas
      </h3>
      <ul className="divide-y divide-white/10 rounded-lg ring-1 ring-white/10" data-testid="quiz-attempts">
        {attempts.map((a) => (
          <li key={a.id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 px-3 py-2 text-sm">
            <span className="text-slate-200">
              Tentativa {a.number}
              <span className="text-slate-400"> · {formatQuizMoment(a.submitted_at ?? a.started_at)}</span>
            </span>
            <span className="flex items-center gap-2">
              <span className="font-semibold text-white tabular-nums">{formatScore(a.score)}</span>
              <span className={cn('text-xs font-medium', a.passed ? 'text-emerald-300' : 'text-red-300')}>
                {a.status === 'expired' ? 'Tempo esgotado' : a.passed ? 'Aprovado' : 'Reprovado'}
              </span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

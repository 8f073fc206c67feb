// The quiz when no attempt is open: what it asks (questions, pass mark, attempts, time limit), the
// start button or why there is none (passed, no attempts left, the wait), the newest result and the
// student's attempts (when there is more than one). "Reprovado" is the result's verdict only.
import { useEffect, useState, type Ref } from 'react';
import { CalendarClock, CheckCircle2, Play, Ban } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { formatQuizMoment, formatScore } from '@/concepts/quiz-state';
import { useStartQuizAttempt } from '../../api/hooks';
import type { QuizForStudent } from '../../api/queries';
import { AttemptList, QuizResult, QuizReview } from './quiz-result';

function plural(n: number, one: string, many: string) {
  return `${n} ${n === 1 ? one : many}`;
}

/** Whether the wait that ends at `at` is over; re-renders when it ends, so the start button appears
 * without a reload. */
function useWaitOver(at: string | null): boolean {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!at) return;
    // setTimeout takes at most 2^31-1 ms; a longer wait re-arms when it fires.
    const id = window.setTimeout(() => setNow(Date.now()), Math.min(Math.max(0, Date.parse(at) - Date.now() + 500), 2 ** 31 - 1));
    return () => window.clearTimeout(id);
  }, [at, now]);
  return !at || Date.parse(at) <= now;
}

function Facts({ quiz }: { quiz: QuizForStudent }) {
  const { settings } = quiz;
  const rows: [string, string][] = [
    ['Perguntas', String(settings.question_count)],
    ['Nota mínima', formatScore(settings.pass_mark)],
    ['Tentativas', settings.max_attempts === null ? `${quiz.attempts_used} usadas · ilimitadas` : `${quiz.attempts_used} de ${settings.max_attempts} usadas`],
  ];
  if (settings.time_limit_minutes) rows.push(['Tempo limite', plural(settings.time_limit_minutes, 'minuto', 'minutos')]);
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4" data-testid="quiz-facts">
      {rows.map(([term, value]) => (
        <div key={term} className="rounded-lg bg-white/5 px-3 py-2 ring-1 ring-white/10">
          <dt className="text-xs text-slate-400">{term}</dt>
          <dd className="text-sm font-semibold text-white">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Refusal({ icon: Icon, tone, children }: { icon: typeof Ban; tone: 'ok' | 'wait' | 'stop'; children: React.ReactNode }) {
  const cls = { ok: 'bg-emerald-400/10 text-emerald-200 ring-emerald-400/30', wait: 'bg-amber-400/15 text-amber-200 ring-amber-400/30', stop: 'bg-red-400/10 text-red-200 ring-red-400/30' }[tone];
  return (
    <p className={`flex items-start gap-2 rounded-lg px-3 py-2.5 text-sm font-medium ring-1 ${cls}`} data-testid="quiz-refusal">
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>{children}</span>
    </p>
  );
}

export function QuizOverview({ quiz, lessonId, userId, resultRef }: { quiz: QuizForStudent; lessonId: string; userId: string; resultRef?: Ref<HTMLHeadingElement> }) {
  const start = useStartQuizAttempt(lessonId, userId);
  const waitOver = useWaitOver(quiz.next_attempt_at);
  const wait = waitOver ? null : quiz.next_attempt_at;
  const latest = quiz.attempts[0];

  let action: React.ReactNode;
  if (quiz.state === 'passed') {
    action = (
      <Refusal icon={CheckCircle2} tone="ok">
        Aprovado — aula concluída{quiz.best_score !== null ? `, com nota ${formatScore(quiz.best_score)}` : ''}.
      </Refusal>
    );
  } else if (quiz.attempts_left === 0) {
    action = <Refusal icon={Ban} tone="stop">Você não tem mais tentativas.</Refusal>;
  } else if (wait) {
    // The verdict is the result's, above: this says only when the next attempt opens.
    action = <Refusal icon={CalendarClock} tone="wait">Nova tentativa liberada em {formatQuizMoment(wait)}.</Refusal>;
  } else {
    action = (
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <Button size="lg" onClick={() => start.mutate(quiz.quiz_id)} disabled={start.isPending}>
          <Play aria-hidden="true" />
          {start.isPending ? 'Iniciando…' : 'Iniciar avaliação'}
        </Button>
        <p className="text-xs text-slate-400">
          {quiz.settings.time_limit_minutes ? `O tempo começa a contar ao iniciar e não para se você sair da página.` : 'Suas respostas são salvas enquanto você responde.'}
        </p>
      </div>
    );
  }

  return (
    <div className="grid gap-5" data-testid="quiz-overview">
      <Facts quiz={quiz} />
      {latest && <QuizResult ref={resultRef} quiz={quiz} attempt={latest} notice={quiz.notice} />}
      {latest && quiz.state === 'failed' && quiz.attempts_left !== 0 && (
        <p className="text-sm text-slate-300">
          {quiz.attempts_left === null ? 'Tentativas ilimitadas.' : `Você tem ${plural(quiz.attempts_left, 'tentativa restante', 'tentativas restantes')}.`}
          {wait ? '' : ' Você já pode tentar de novo.'}
        </p>
      )}
      {action}
      {latest && <QuizReview quiz={quiz} attempt={latest} />}
      {/* One attempt is the result above; the list is for two or more. */}
      {quiz.attempts.length > 1 && <AttemptList attempts={quiz.attempts} />}
    </div>
  );
}

// A quiz lesson's state as a small badge (issue 23): the course page, the lesson side panel, the
// home's "continue" card and the quiz player show the same words and colours (src/concepts/quiz-state.ts).
import { ClipboardCheck } from 'lucide-react';
import { quizStateLabel, quizSummaryText, type QuizState, type QuizStateInput, type QuizStateRow } from '@/concepts/quiz-state';
import { cn } from '@/utils/cn';

const LIGHT: Record<QuizState, string> = {
  not_started: 'bg-slate-100 text-slate-700 ring-slate-300',
  in_progress: 'bg-sky-50 text-sky-800 ring-sky-300',
  failed: 'bg-red-50 text-red-700 ring-red-200',
  passed: 'bg-green-50 text-green-800 ring-green-300',
};

const DARK: Record<QuizState, string> = {
  not_started: 'bg-white/10 text-slate-200 ring-white/20',
  in_progress: 'bg-sky-400/15 text-sky-200 ring-sky-400/30',
  failed: 'bg-red-400/15 text-red-200 ring-red-400/30',
  passed: 'bg-emerald-400/15 text-emerald-200 ring-emerald-400/30',
};

export function QuizStateBadge({
  value,
  tone = 'light',
  now,
  className,
}: {
  value: QuizStateInput;
  /** 'dark' on the lesson page (slate-950), 'light' on the member area's white cards. */
  tone?: 'light' | 'dark';
  now?: Date;
  className?: string;
}) {
  return (
    <span
      data-testid="quiz-state"
      data-state={value.state}
      className={cn(
        'inline-flex max-w-full items-center gap-1 rounded-full px-2 py-0.5 text-[11px] leading-4 font-medium ring-1',
        (tone === 'dark' ? DARK : LIGHT)[value.state],
        className,
      )}
    >
      <ClipboardCheck className="size-3 shrink-0" aria-hidden="true" />
      <span className="sr-only">Avaliação: </span>
      <span className="min-w-0">{quizStateLabel(value, now)}</span>
    </span>
  );
}

/** A course's quizzes summed up on its home card: '1 avaliação pendente · próxima tentativa em …'. */
export function QuizSummary({ rows, now, className }: { rows: readonly QuizStateRow[]; now?: Date; className?: string }) {
  const text = quizSummaryText(rows, now);
  if (!text) return null;
  const done = rows.every((r) => r.state === 'passed');
  return (
    <p className={cn('flex items-start gap-1.5 text-xs font-medium', done ? 'text-green-700' : 'text-amber-800', className)} data-testid="quiz-summary">
      <ClipboardCheck className="mt-px size-3.5 shrink-0" aria-hidden="true" />
      <span>{text}</span>
    </p>
  );
}

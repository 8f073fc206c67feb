// An attempt being answered: one question per screen (Anterior / Próxima) or all on one page, as the
// student chooses (the default follows the screen's width); the progress, the timer, answers saved as
// they change (a reload restores them), and "Enviar respostas" with a confirmation for blanks.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ChevronLeft, ChevronRight, Send } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ProgressBar } from '@/components/ui/progress-bar';
import { cn } from '@/utils/cn';
import { useSaveQuizAnswers, useSubmitQuizAttempt } from '../../api/hooks';
import type { QuizAnswers, QuizForStudent, QuizOpenAttempt } from '../../api/queries';
import { QuizQuestion } from './quiz-question';
import { QuizTimer } from './quiz-timer';

/** Answers are saved this long after the last change. */
export const AUTOSAVE_DELAY_MS = 800;

type Layout = 'one' | 'all';

const defaultLayout = (): Layout => (typeof window !== 'undefined' && window.matchMedia?.('(min-width: 768px)').matches ? 'all' : 'one');

function blankCount(attempt: QuizOpenAttempt, answers: QuizAnswers) {
  return attempt.questions.filter((q) => !answers[q.id]?.length).length;
}

function LayoutToggle({ value, onChange }: { value: Layout; onChange: (v: Layout) => void }) {
  const item = (v: Layout, label: string) => (
    <button
      type="button"
      aria-pressed={value === v}
      onClick={() => onChange(v)}
      className={cn(
        'cursor-pointer rounded-md px-3 py-1.5 text-xs font-medium transition-colors',
        value === v ? 'bg-slate-700 text-white' : 'text-slate-300 hover:text-white',
      )}
    >
      {label}
    </button>
  );
  return (
    <div role="group" aria-label="Exibir perguntas" className="inline-flex rounded-lg bg-white/5 p-1 ring-1 ring-white/10">
      {item('one', 'Uma por vez')}
      {item('all', 'Todas')}
    </div>
  );
}

export function QuizAttempt({ quiz, lessonId, userId }: { quiz: QuizForStudent & { open_attempt: QuizOpenAttempt }; lessonId: string; userId: string }) {
  const attempt = quiz.open_attempt;
  const questions = attempt.questions;
  const total = questions.length;
  const [answers, setAnswers] = useState<QuizAnswers>(() => attempt.answers ?? {});
  const [layout, setLayout] = useState<Layout>(defaultLayout);
  const [current, setCurrent] = useState(() => Math.max(0, questions.findIndex((q) => !attempt.answers?.[q.id]?.length)));
  const [confirming, setConfirming] = useState(false);
  const [timeUp, setTimeUp] = useState(false);
  const headings = useRef<(HTMLHeadingElement | null)[]>([]);
  const save = useSaveQuizAnswers(lessonId, userId);
  const submit = useSubmitQuizAttempt(lessonId, userId);

  // Autosave: the answers AUTOSAVE_DELAY_MS after the last change; at once when the tab is hidden.
  const dirty = useRef(false);
  const latest = useRef(answers);
  const { mutate: saveNow } = save;
  const flush = useCallback(() => {
    if (!dirty.current) return;
    dirty.current = false;
    saveNow({ attemptId: attempt.id, answers: latest.current });
  }, [saveNow, attempt.id]);
  useEffect(() => {
    if (!dirty.current) return;
    const id = window.setTimeout(flush, AUTOSAVE_DELAY_MS);
    return () => window.clearTimeout(id);
  }, [answers, flush]);
  useEffect(() => {
    const onHide = () => document.visibilityState === 'hidden' && flush();
    document.addEventListener('visibilitychange', onHide);
    return () => document.removeEventListener('visibilitychange', onHide);
  }, [flush]);

  const change = (questionId: string, value: string[]) => {
    const next = { ...latest.current, [questionId]: value };
    latest.current = next;
    dirty.current = true;
    setAnswers(next);
  };

  const send = () => {
    if (submit.isPending || submit.isSuccess) return;
    dirty.current = false;
    setConfirming(false);
    submit.mutate({ attemptId: attempt.id, answers: latest.current });
  };
  const expire = () => {
    setTimeUp(true);
    send();
  };

  const go = (index: number) => {
    setCurrent(index);
    // The question's heading takes the focus (and scrolls into view on a phone).
    requestAnimationFrame(() => headings.current[index]?.focus());
  };

  const answered = total - blankCount(attempt, answers);
  const blanks = total - answered;
  const busy = submit.isPending || timeUp;
  const shown = layout === 'all' ? questions.map((q, i) => [q, i] as const) : questions[current] ? [[questions[current], current] as const] : [];

  return (
    <div className="grid gap-5" data-testid="quiz-attempt">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-300">
          Tentativa {attempt.number}
          {quiz.settings.max_attempts !== null && ` de ${quiz.settings.max_attempts}`}
        </p>
        <div className="flex flex-wrap items-center gap-2">
          {attempt.deadline_at && <QuizTimer deadline={attempt.deadline_at} serverNow={attempt.now} receivedAt={quiz.received_at} onExpire={expire} />}
          <LayoutToggle value={layout} onChange={setLayout} />
        </div>
      </div>

      <div className="grid gap-1.5">
        <p className="text-xs text-slate-300" data-testid="quiz-answered">
          {answered} de {total} {total === 1 ? 'pergunta respondida' : 'perguntas respondidas'}
        </p>
        <ProgressBar value={total ? (answered / total) * 100 : 0} label="Perguntas respondidas" className="h-1.5 bg-white/10" />
      </div>

      {timeUp && (
        <p role="alert" className="rounded-lg bg-amber-400/15 px-3 py-2 text-sm text-amber-200 ring-1 ring-amber-400/30">
          O tempo acabou. Enviando suas respostas…
        </p>
      )}

      {layout === 'one' && total > 1 && (
        <nav aria-label="Perguntas" className="flex flex-wrap gap-1.5">
          {questions.map((q, i) => {
            const done = !!answers[q.id]?.length;
            return (
              <button
                key={q.id}
                type="button"
                onClick={() => go(i)}
                aria-label={`Ir para a pergunta ${i + 1}${done ? ' (respondida)' : ''}`}
                aria-current={i === current ? 'step' : undefined}
                className={cn(
                  'size-9 cursor-pointer rounded-full text-xs font-semibold ring-1 transition-colors',
                  i === current ? 'bg-primary text-white ring-primary' : done ? 'bg-white/15 text-white ring-white/20' : 'text-slate-300 ring-white/15 hover:bg-white/10',
                )}
              >
                {i + 1}
              </button>
            );
          })}
        </nav>
      )}

      <div className={cn('grid', layout === 'all' ? 'gap-8' : 'gap-4')}>
        {shown.map(([q, i]) => (
          <div key={q.id} className={cn(layout === 'all' && i > 0 && 'border-t border-white/10 pt-6')}>
            <QuizQuestion
              ref={(el) => {
                headings.current[i] = el;
              }}
              question={q}
              number={i + 1}
              total={total}
              value={answers[q.id] ?? []}
              onChange={(v) => change(q.id, v)}
              disabled={busy}
            />
          </div>
        ))}
      </div>

      <div className="flex flex-col gap-3 border-t border-white/10 pt-4 sm:flex-row sm:items-center sm:justify-between">
        {layout === 'one' ? (
          <div className="flex gap-2">
            <Button variant="outline" className="flex-1 border-white/15 bg-white/5 text-slate-100 hover:bg-white/10 hover:text-white sm:flex-none" disabled={current === 0} onClick={() => go(current - 1)}>
              <ChevronLeft aria-hidden="true" />
              Anterior
            </Button>
            <Button variant="outline" className="flex-1 border-white/15 bg-white/5 text-slate-100 hover:bg-white/10 hover:text-white sm:flex-none" disabled={current >= total - 1} onClick={() => go(current + 1)}>
              Próxima
              <ChevronRight aria-hidden="true" />
            </Button>
          </div>
        ) : (
          <span />
        )}
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
          <SaveStatus saving={save.isPending} failed={save.isError} savedAt={save.data ?? null} />
          <Button size="lg" disabled={busy} onClick={() => (blanks > 0 ? setConfirming(true) : send())}>
            <Send aria-hidden="true" />
            {submit.isPending ? 'Enviando…' : 'Enviar respostas'}
          </Button>
        </div>
      </div>

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Você deixou ${blanks} ${blanks === 1 ? 'pergunta' : 'perguntas'} em branco. Enviar mesmo assim?`}
        description="Perguntas em branco contam como erradas."
        confirmLabel="Enviar respostas"
        cancelLabel="Voltar às perguntas"
        destructive={false}
        pending={submit.isPending}
        onConfirm={send}
      />
    </div>
  );
}

function SaveStatus({ saving, failed, savedAt }: { saving: boolean; failed: boolean; savedAt: string | null }) {
  return (
    <p className="text-xs text-slate-400" aria-live="polite" data-testid="quiz-save-status">
      {saving ? 'Salvando respostas…' : failed ? 'Não foi possível salvar as respostas.' : savedAt ? 'Respostas salvas.' : ''}
    </p>
  );
}

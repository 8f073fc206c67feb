// One question while answering: single and true/false as a radio group, multiple as checkboxes, each
// option a whole-row label (a thumb-sized target on a phone).
import { forwardRef } from 'react';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { cn } from '@/utils/cn';
import type { QuizQuestion as Question } from '../../api/queries';
import { QuizImage, QuizStatement } from './quiz-statement';

const OPTION =
  'flex cursor-pointer items-start gap-3 rounded-lg border border-white/10 bg-white/5 p-3 text-sm text-slate-100 transition-colors hover:bg-white/10';
const SELECTED = 'border-primary-on-dark bg-primary/25 hover:bg-primary/30';

export interface QuizQuestionProps {
  question: Question;
  number: number;
  total: number;
  value: readonly string[];
  onChange: (value: string[]) => void;
  disabled?: boolean;
}

/** The heading takes the focus when the student moves to this question (ref). */
export const QuizQuestion = forwardRef<HTMLHeadingElement, QuizQuestionProps>(function QuizQuestion({ question, number, total, value, onChange, disabled }, ref) {
  const base = `q-${question.id}`;
  const answered = value.length > 0;
  return (
    <div role="group" aria-labelledby={`${base}-h ${base}-s`} className="grid gap-4" data-testid="quiz-question">
      <div className="grid gap-2">
        <h3 ref={ref} id={`${base}-h`} tabIndex={-1} className="flex flex-wrap items-center gap-2 text-sm font-semibold text-slate-300 outline-none">
          Pergunta {number} de {total}
          {question.kind === 'multiple' && <span className="font-normal text-slate-400">· marque todas as corretas</span>}
          <span className="sr-only">{answered ? '(respondida)' : '(em branco)'}</span>
        </h3>
        <QuizStatement id={`${base}-s`} statement={question.statement} />
        {question.image_path && <QuizImage path={question.image_path} alt={`Imagem da pergunta ${number}`} />}
      </div>
      {question.kind === 'multiple' ? (
        <div className="grid gap-2">
          {question.options.map((o) => {
            const checked = value.includes(o.id);
            return (
              <label key={o.id} className={cn(OPTION, checked && SELECTED)}>
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 shrink-0 accent-primary"
                  checked={checked}
                  disabled={disabled}
                  onChange={(e) => onChange(e.target.checked ? [...value, o.id] : value.filter((id) => id !== o.id))}
                />
                <span className="min-w-0 break-words">{o.text}</span>
              </label>
            );
          })}
        </div>
      ) : (
        <RadioGroup value={value[0] ?? ''} onValueChange={(id) => onChange([id])} disabled={disabled} aria-labelledby={`${base}-h ${base}-s`}>
          {question.options.map((o) => {
            const id = `${base}-${o.id}`;
            const checked = value[0] === o.id;
            return (
              <label key={o.id} htmlFor={id} className={cn(OPTION, checked && SELECTED)}>
                <RadioGroupItem id={id} value={o.id} className="mt-0.5 border-slate-400" />
                <span className="min-w-0 break-words">{o.text}</span>
              </label>
            );
          })}
        </RadioGroup>
      )}
    </div>
  );
});

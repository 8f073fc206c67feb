// The question form's type, scoring and options (2 to 10, each a text and whether it is correct: a radio
// for single choice and true/false, a checkbox for multiple choice). Part of QuestionDialog's form.
import { useId } from 'react';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { Plus, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { Select } from '@/components/ui/select';
import { randomId } from '../../api/admin-queries';
import {
  KIND_LABEL,
  MAX_OPTIONS,
  MIN_OPTIONS,
  QUESTION_KINDS,
  QUESTION_SCORINGS,
  SCORING_LABEL,
  TRUE_FALSE_TEXTS,
  type QuestionFormValues,
  type QuestionKind,
} from '../../schemas';

const SCORING_HINT = {
  all_or_nothing: 'Vale a pergunta inteira só com todas as corretas e nenhuma errada.',
  partial: 'Cada correta marcada soma uma parte; cada errada marcada desconta uma parte (mínimo 0).',
} as const;

export function QuestionChoices() {
  const id = useId();
  const {
    control,
    register,
    getValues,
    setValue,
    formState: { errors, isSubmitted },
  } = useFormContext<QuestionFormValues>();
  const { fields, append, remove, replace } = useFieldArray({ control, name: 'options', keyName: 'key' });
  const kind = useWatch({ control, name: 'kind' });
  const options = useWatch({ control, name: 'options' });
  const scoring = useWatch({ control, name: 'scoring' });
  const fixed = kind === 'true_false';

  /** Keeps the options valid for the new type: Verdadeiro/Falso for true/false, one correct for single. */
  function changeKind(next: QuestionKind) {
    const current = getValues('options');
    if (next === 'true_false') {
      replace(TRUE_FALSE_TEXTS.map((text, i) => ({ id: current[i]?.id ?? randomId(), text, correct: false })));
    } else if (next === 'single') {
      const first = current.findIndex((o) => o.correct);
      replace(current.map((o, i) => ({ ...o, correct: i === first })));
    }
  }

  function setCorrect(index: number, correct: boolean) {
    const validate = { shouldValidate: isSubmitted, shouldDirty: true };
    if (kind === 'multiple') return setValue(`options.${index}.correct`, correct, validate);
    getValues('options').forEach((_o, i) => setValue(`options.${i}.correct`, i === index, validate));
  }

  const optionsError = errors.options?.root?.message ?? errors.options?.message;
  const rows = fields.map((field, index) => {
    const textId = `${id}-option-${index}`;
    const correctId = `${id}-correct-${index}`;
    const checked = options?.[index]?.correct ?? false;
    const textError = errors.options?.[index]?.text?.message;
    return (
      <div key={field.key} className="flex min-w-0 flex-wrap items-end gap-2 rounded-lg border border-border p-2 sm:flex-nowrap">
        <div className="grid min-w-0 flex-1 basis-full gap-1 sm:basis-auto">
          <Label htmlFor={textId}>Opção {index + 1}</Label>
          <Input
            id={textId}
            readOnly={fixed}
            aria-invalid={textError ? true : undefined}
            aria-describedby={textError ? `${textId}-error` : undefined}
            {...register(`options.${index}.text`)}
          />
          {textError && (
            <p id={`${textId}-error`} role="alert" className="text-sm font-medium text-destructive">
              {textError}
            </p>
          )}
        </div>
        <div className="flex h-10 items-center gap-2 px-1">
          {kind === 'multiple' ? (
            <input
              id={correctId}
              type="checkbox"
              className="size-4 cursor-pointer accent-primary"
              checked={checked}
              onChange={(e) => setCorrect(index, e.target.checked)}
            />
          ) : (
            <RadioGroupItem id={correctId} value={field.id} />
          )}
          <Label htmlFor={correctId}>Correta</Label>
        </div>
        {!fixed && (
          <Button
            type="button"
            variant="ghost"
            size="icon"
            aria-label={`Remover opção ${index + 1}`}
            disabled={fields.length <= MIN_OPTIONS}
            onClick={() => remove(index)}
          >
            <X aria-hidden="true" />
          </Button>
        )}
      </div>
    );
  });

  return (
    <div className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Tipo de pergunta" className="content-start">
          <Select
            {...register('kind', { onChange: (e: { target: { value: QuestionKind } }) => changeKind(e.target.value) })}
          >
            {QUESTION_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABEL[k]}
              </option>
            ))}
          </Select>
        </FormField>
        {kind === 'multiple' && (
          <FormField label="Pontuação" hint={SCORING_HINT[scoring]} className="content-start">
            <Select {...register('scoring')}>
              {QUESTION_SCORINGS.map((s) => (
                <option key={s} value={s}>
                  {SCORING_LABEL[s]}
                </option>
              ))}
            </Select>
          </FormField>
        )}
      </div>
      <div className="grid gap-2">
        <p id={`${id}-options`} className="text-sm leading-none font-medium">
          Opções
        </p>
        <p id={`${id}-options-hint`} className="text-xs text-muted-foreground">
          {kind === 'multiple'
            ? 'Marque todas as opções corretas.'
            : fixed
              ? 'Marque se a afirmação é verdadeira ou falsa.'
              : 'Marque a opção correta.'}
        </p>
        {kind === 'multiple' ? (
          <div role="group" aria-labelledby={`${id}-options`} aria-describedby={`${id}-options-hint`} className="grid gap-2">
            {rows}
          </div>
        ) : (
          <RadioGroup
            aria-labelledby={`${id}-options`}
            aria-describedby={`${id}-options-hint`}
            value={options?.find((o) => o.correct)?.id ?? ''}
            onValueChange={(value) => setCorrect(fields.findIndex((f) => f.id === value), true)}
          >
            {rows}
          </RadioGroup>
        )}
        {optionsError && (
          <p role="alert" className="text-sm font-medium text-destructive">
            {optionsError}
          </p>
        )}
        {!fixed && (
          <Button
            type="button"
            variant="outline"
            size="sm"
            className="w-fit"
            disabled={fields.length >= MAX_OPTIONS}
            onClick={() => append({ id: randomId(), text: '', correct: false })}
          >
            <Plus aria-hidden="true" /> Adicionar opção
          </Button>
        )}
      </div>
    </div>
  );
}

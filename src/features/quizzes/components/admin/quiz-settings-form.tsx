// The quiz's settings (issue 23): pass mark, attempts, wait, time limit and what a late submission
// gets, shuffling, and when students see the correct answers. They apply at once, published or not.
import { useId, type KeyboardEvent } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2, Save } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { Select } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { useSaveQuizSettings, type AdminQuiz } from '../../api/admin-hooks';
import {
  ATTEMPT_CHOICES,
  LATE_POLICIES,
  LATE_POLICY_LABEL,
  SHOW_ANSWERS,
  SHOW_ANSWERS_LABEL,
  quizSettingsSchema,
  type QuizSettingsInput,
  type QuizSettingsValues,
} from '../../schemas';

const formValues = (quiz: AdminQuiz): QuizSettingsInput => ({
  pass_mark: String(quiz.pass_mark),
  max_attempts: quiz.max_attempts === null ? '' : String(quiz.max_attempts),
  wait_hours: String(quiz.wait_hours),
  time_limit_minutes: quiz.time_limit_minutes === null ? '' : String(quiz.time_limit_minutes),
  late_policy: quiz.late_policy,
  shuffle_questions: quiz.shuffle_questions,
  shuffle_options: quiz.shuffle_options,
  show_answers: quiz.show_answers,
});

export function QuizSettingsForm({ quiz }: { quiz: AdminQuiz }) {
  const id = useId();
  const save = useSaveQuizSettings(quiz.id);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<QuizSettingsInput, unknown, QuizSettingsValues>({
    resolver: zodResolver(quizSettingsSchema),
    values: formValues(quiz),
  });
  const submit = handleSubmit((values) => save.mutate(values));
  // Not a <form>: this tab sits inside the lesson dialog's own form, whose submit Enter would press.
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && e.target instanceof HTMLInputElement) {
      e.preventDefault();
      void submit();
    }
  };

  return (
    <fieldset className="grid min-w-0 gap-4" aria-labelledby={`${id}-title`} onKeyDown={onKeyDown}>
      <h3 id={`${id}-title`} className="text-base font-semibold">
        Configurações
      </h3>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Nota mínima para aprovação (%)" error={errors.pass_mark?.message} required>
          <Input type="number" inputMode="numeric" min={1} max={100} step={1} {...register('pass_mark')} />
        </FormField>
        <FormField label="Tentativas permitidas" error={errors.max_attempts?.message}>
          <Select {...register('max_attempts')}>
            {ATTEMPT_CHOICES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
            <option value="">Ilimitadas</option>
          </Select>
        </FormField>
        <FormField
          label="Intervalo entre tentativas (horas)"
          hint="0: o aluno pode tentar de novo logo em seguida."
          error={errors.wait_hours?.message}
        >
          <Input type="number" inputMode="numeric" min={0} max={720} step={1} {...register('wait_hours')} />
        </FormField>
        <FormField
          label="Tempo limite (minutos)"
          hint="Opcional: em branco, sem limite de tempo."
          error={errors.time_limit_minutes?.message}
        >
          <Input type="number" inputMode="numeric" min={1} max={600} step={1} {...register('time_limit_minutes')} />
        </FormField>
      </div>
      <div className="grid gap-2">
        <p id={`${id}-late`} className="text-sm leading-none font-medium">
          Envio após o tempo
        </p>
        <p id={`${id}-late-hint`} className="text-xs text-muted-foreground">
          Vale quando há tempo limite e o aluno envia depois dele.
        </p>
        <Controller
          control={control}
          name="late_policy"
          render={({ field }) => (
            <RadioGroup
              value={field.value}
              onValueChange={field.onChange}
              aria-labelledby={`${id}-late`}
              aria-describedby={`${id}-late-hint`}
              className="sm:grid-cols-2"
            >
              {LATE_POLICIES.map((value) => (
                <div key={value} className="flex items-center gap-2 rounded-lg border border-border px-3 py-2">
                  <RadioGroupItem value={value} id={`${id}-late-${value}`} />
                  <Label htmlFor={`${id}-late-${value}`} className="leading-snug">
                    {LATE_POLICY_LABEL[value]}
                  </Label>
                </div>
              ))}
            </RadioGroup>
          )}
        />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        {(['shuffle_questions', 'shuffle_options'] as const).map((name) => (
          <Controller
            key={name}
            control={control}
            name={name}
            render={({ field }) => (
              <div className="flex items-center gap-3">
                <Switch id={`${id}-${name}`} checked={field.value} onCheckedChange={field.onChange} />
                <Label htmlFor={`${id}-${name}`}>
                  {name === 'shuffle_questions' ? 'Embaralhar perguntas' : 'Embaralhar opções'}
                </Label>
              </div>
            )}
          />
        ))}
      </div>
      <FormField label="Mostrar respostas corretas" error={errors.show_answers?.message} className="sm:max-w-sm">
        <Select {...register('show_answers')}>
          {SHOW_ANSWERS.map((value) => (
            <option key={value} value={value}>
              {SHOW_ANSWERS_LABEL[value]}
            </option>
          ))}
        </Select>
      </FormField>
      <Button type="button" variant="outline" className="w-fit" disabled={save.isPending} onClick={() => void submit()}>
        {save.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Save aria-hidden="true" />}
        Salvar configurações
      </Button>
    </fieldset>
  );
}

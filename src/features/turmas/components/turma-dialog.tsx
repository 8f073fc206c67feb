// Nova Turma / Editar Turma: name, start, end or "Sem término", the sales window, seats and the waiting
// list. A name already used in the course is shown under the name (turmas_course_name_key).
import { useId } from 'react';
import { useWatch } from 'react-hook-form';
import { SwitchChoiceField } from '@/components/ui/choice-fields';
import { FormDialog } from '@/components/ui/form-dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { useFormDialogForm } from '@/components/ui/use-form-dialog-form';
import type { CourseTurma } from '@/concepts/turmas';
import { useSaveTurma } from '../api/hooks';
import { dayOf, turmaFormSchema, type TurmaFormInput } from '../schemas';

function formValues(t: CourseTurma | null): TurmaFormInput {
  return {
    name: t?.name ?? '',
    starts_on: t?.starts_on ?? '',
    no_end: t ? t.ends_on === null : false,
    ends_on: t?.ends_on ?? '',
    enroll_from: dayOf(t?.enroll_from ?? null),
    enroll_until: dayOf(t?.enroll_until ?? null, true),
    seats: t?.seats ? String(t.seats) : '',
    waitlist_enabled: t?.waitlist_enabled ?? false,
  };
}

export function TurmaDialog({ turma, schoolId, courseId, onClose }: { turma: CourseTurma | null; schoolId: string; courseId: string; onClose: () => void }) {
  const id = useId();
  const save = useSaveTurma();
  const { form, dialog } = useFormDialogForm(turmaFormSchema, formValues(turma), {
    save: (values) => save.mutateAsync({ id: turma?.id, schoolId, courseId, values }),
    onClose,
    taken: ['turmas_course_name_key', 'name'],
  });
  const { register, control } = form;
  const errors = form.formState.errors;
  const noEnd = useWatch({ control, name: 'no_end' });

  return (
    <FormDialog
      title={turma ? 'Editar Turma' : 'Nova Turma'}
      description="Os alunos da turma começam juntos: o conteúdo abre a partir do início (e pelo calendário da turma) e o acesso termina com ela."
      {...dialog}
    >
      <FormField label="Nome" error={errors.name?.message} required>
        <Input autoComplete="off" placeholder="Turma de março" {...register('name')} />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2 sm:items-start">
        <FormField label="Início" error={errors.starts_on?.message} hint="O conteúdo abre às 00:00 (Brasília)." required>
          <Input type="date" {...register('starts_on')} />
        </FormField>
        <FormField label="Término" error={errors.ends_on?.message} hint="O acesso vai até o fim deste dia.">
          <Input type="date" disabled={noEnd} {...register('ends_on')} />
        </FormField>
      </div>
      <SwitchChoiceField control={control} name="no_end" id={id} label="Sem término" />
      <div className="grid gap-4 sm:grid-cols-2 sm:items-start">
        <FormField label="Inscrições a partir de" error={errors.enroll_from?.message} hint="Vazio: já abertas.">
          <Input type="date" {...register('enroll_from')} />
        </FormField>
        <FormField label="Inscrições até" error={errors.enroll_until?.message} hint="Vazio: até o término. Vale até 23:59 (Brasília).">
          <Input type="date" {...register('enroll_until')} />
        </FormField>
      </div>
      <FormField label="Vagas" error={errors.seats?.message} hint="Vazio: sem limite.">
        <Input inputMode="numeric" autoComplete="off" {...register('seats')} />
      </FormField>
      <SwitchChoiceField control={control} name="waitlist_enabled" id={id} label="Lista de espera quando esgotar" />
    </FormDialog>
  );
}

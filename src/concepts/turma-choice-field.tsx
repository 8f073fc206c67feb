// "Turma" in the coupon and plan dialogs (issue 40, docs/turmas.md): a coupon limited to a turma
// discounts only a sale in it; a plan with a turma enrolls its subscribers there. The choices are the
// turmas of the courses chosen in the dialog (public.admin_turmas per course, as the Turmas screen
// reads them); the empty value is no turma.
import { useQueries } from '@tanstack/react-query';
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { FormField } from '@/components/ui/form-field';
import { Select } from '@/components/ui/select';
import type { CourseOption } from './course-filter';
import { courseTurmasQuery, turmaPeriod } from './turmas';

export function TurmaChoiceField<T extends FieldValues>({
  control,
  name,
  courseIds,
  courses,
  none,
  hint,
}: {
  control: Control<T>;
  name: FieldPath<T>;
  /** The courses chosen in the dialog: their turmas are the choices. */
  courseIds: readonly string[];
  courses: readonly CourseOption[];
  /** The empty choice's label ('Qualquer turma', 'Nenhuma turma'). */
  none: string;
  hint: string;
}) {
  const reads = useQueries({ queries: courseIds.map((id) => courseTurmasQuery(id)) });
  const options = reads.flatMap((read, i) => {
    const title = courses.find((c) => c.id === courseIds[i])?.title ?? '';
    return (read.data ?? []).map((t) => ({ id: t.id, label: `${title} · ${t.name} (${turmaPeriod(t)})` }));
  });
  if (options.length === 0) return null;
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <FormField label="Turma" hint={hint}>
          <Select value={field.value ?? ''} onChange={(e) => field.onChange(e.target.value)} onBlur={field.onBlur}>
            <option value="">{none}</option>
            {options.map((o) => (
              <option key={o.id} value={o.id}>
                {o.label}
              </option>
            ))}
          </Select>
        </FormField>
      )}
    />
  );
}

// The course form's "Oferta adicional" (an order bump, issue 24; said in Portuguese for the school's
// staff, issue 46): another course of the school offered on this course's checkout ("Leve também: …") at
// a special price, paid in the same charge. Saved in course_bumps.
import { useId } from 'react';
import { Controller, useWatch, type Control, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { formatMoney } from '@/utils/format';
import type { AdminCourse } from '../../api/admin-hooks';
import { STATUS_LABEL, type CourseFormInput } from '../../schemas';

export function CourseBumpSection({
  control,
  register,
  errors,
  options,
}: {
  control: Control<CourseFormInput>;
  register: UseFormRegister<CourseFormInput>;
  errors: FieldErrors<CourseFormInput>;
  /** The school's other courses. */
  options: AdminCourse[] | undefined;
}) {
  const id = useId();
  const [enabled, bumpCourseId] = useWatch({ control, name: ['bump_enabled', 'bump_course_id'] });
  const chosen = options?.find((c) => c.id === bumpCourseId);
  return (
    <section aria-labelledby={`${id}-title`} className="grid gap-4 rounded-xl border border-border bg-white p-4 sm:p-6">
      <div className="grid gap-1">
        <h2 id={`${id}-title`} className="text-base font-semibold">
          Oferta adicional
        </h2>
        <p className="text-xs text-muted-foreground">
          No checkout deste curso, o aluno pode marcar outro curso por um preço especial e pagar os dois numa só
          cobrança.
        </p>
      </div>
      <Controller
        control={control}
        name="bump_enabled"
        render={({ field }) => (
          <div className="flex items-center gap-3">
            <Switch id={`${id}-enabled`} ref={field.ref} checked={!!field.value} onCheckedChange={field.onChange} />
            <Label htmlFor={`${id}-enabled`}>Oferecer outro curso no checkout</Label>
          </div>
        )}
      />
      {enabled && (
        <div className="grid gap-5 sm:grid-cols-2">
          {/* Controlled: the saved course is selected once the options arrive. */}
          <Controller
            control={control}
            name="bump_course_id"
            render={({ field }) => (
              <FormField
                label="Curso oferecido"
                error={errors.bump_course_id?.message}
                hint={
                  chosen
                    ? `Preço normal: ${formatMoney(chosen.price)}${chosen.status === 'PUBLISHED' ? '' : ` · ${STATUS_LABEL[chosen.status]}: a oferta só aparece quando ele for publicado`}`
                    : undefined
                }
                required
              >
                <Select
                  name={field.name}
                  ref={field.ref}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  disabled={!options}
                >
                  <option value="">
                    {options
                      ? options.length
                        ? 'Selecione um curso'
                        : 'A escola não tem outros cursos'
                      : 'Carregando cursos...'}
                  </option>
                  {options?.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.title}
                    </option>
                  ))}
                </Select>
              </FormField>
            )}
          />
          <FormField
            label="Preço especial (R$)"
            error={errors.bump_price?.message}
            hint="Mínimo R$ 5,00. Ex.: 97,00"
            required
          >
            <Input inputMode="decimal" autoComplete="off" {...register('bump_price')} />
          </FormField>
        </div>
      )}
    </section>
  );
}

// Nova Matrícula: search an active student of the school, pick a course, a turma of it when it has turmas,
// and, optionally, the last day (empty in a turma: the turma's end).
import { useDeferredValue, useId, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Search } from 'lucide-react';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { Select } from '@/components/ui/select';
import { useCreateEnrollment, useStudentOptions } from '../api/hooks';
import { enrollSchema, expiresAtOf, type EnrollValues } from '../schemas';
import { CourseOptions, type CourseOption } from '@/concepts/course-filter';
import { turmaPeriod, useCourseTurmas } from '@/concepts/turmas';

export function EnrollDialog({ schoolId, courses, onClose }: { schoolId: string; courses: CourseOption[]; onClose: () => void }) {
  const id = useId();
  const [term, setTerm] = useState('');
  const deferred = useDeferredValue(term.trim());
  const options = useStudentOptions(schoolId, deferred, true);
  const [today] = useState(() => new Date().toISOString().slice(0, 10));
  const create = useCreateEnrollment();
  const {
    register,
    control,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm<EnrollValues>({ resolver: zodResolver(enrollSchema(today)), defaultValues: { user_id: '', course_id: '', turma_id: '', expires: '' } });
  const [studentId, courseId] = useWatch({ control, name: ['user_id', 'course_id'] });
  const turmas = useCourseTurmas(courseId);
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Nova Matrícula</DialogTitle>
          <DialogDescription>Escolha um aluno ativo e um curso da escola.</DialogDescription>
        </DialogHeader>
        <form
          noValidate
          aria-label="Nova Matrícula"
          className="grid gap-4"
          onSubmit={handleSubmit((v) => create.mutate({ user_id: v.user_id, course_id: v.course_id, turma_id: v.turma_id || null, expires_at: expiresAtOf(v.expires) }, { onSuccess: onClose }))}
        >
          <div className="grid gap-2">
            <Label htmlFor={`${id}-search`}>Buscar aluno</Label>
            <div className="relative">
              <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
              <Input id={`${id}-search`} type="search" className="pl-9" placeholder="Nome, e-mail ou CPF" value={term} onChange={(e) => setTerm(e.target.value)} />
            </div>
            <div className="max-h-56 overflow-y-auto rounded-lg border border-border p-2" aria-busy={options.isFetching}>
              {options.data && options.data.length === 0 ? (
                <p className="px-2 py-3 text-sm text-muted-foreground">Nenhum aluno ativo encontrado.</p>
              ) : (
                <Controller
                  control={control}
                  name="user_id"
                  render={({ field }) => (
                    <RadioGroup value={field.value} onValueChange={field.onChange} aria-label="Aluno">
                      {(options.data ?? []).map((s) => (
                        <div key={s.id} className="flex items-center gap-2 rounded-md px-2 py-1.5 hover:bg-muted">
                          <RadioGroupItem value={s.id} id={`${id}-s-${s.id}`} />
                          <Label htmlFor={`${id}-s-${s.id}`} className="grid min-w-0 flex-1 cursor-pointer gap-0.5">
                            <span className="truncate">{s.name}</span>
                            <span className="truncate text-xs font-normal text-muted-foreground">{s.email}</span>
                          </Label>
                        </div>
                      ))}
                    </RadioGroup>
                  )}
                />
              )}
            </div>
            {errors.user_id && (
              <p role="alert" className="text-sm font-medium text-destructive">
                {errors.user_id.message}
              </p>
            )}
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="Curso" error={errors.course_id?.message}>
              <Select {...register('course_id', { onChange: () => setValue('turma_id', '') })}>
                <option value="">Selecione um curso</option>
                <CourseOptions courses={courses} />
              </Select>
            </FormField>
            <FormField label="Expira em (opcional)" error={errors.expires?.message}>
              <Input type="date" min={today} {...register('expires')} />
            </FormField>
          </div>
          {(turmas.data ?? []).length > 0 && (
            <FormField label="Turma" hint="Na turma, o conteúdo abre pelo calendário dela e o acesso termina com ela.">
              <Select {...register('turma_id')}>
                <option value="">Sem turma</option>
                {(turmas.data ?? []).map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name} ({turmaPeriod(t)})
                  </option>
                ))}
              </Select>
            </FormField>
          )}
          {/* Both choices are needed before anything can be sent (the button says so by being off). */}
          <FormDialogFooter onCancel={onClose} pending={create.isPending} submitLabel="Matricular" disabled={!studentId || !courseId} />
        </form>
      </DialogContent>
    </Dialog>
  );
}

// "Calendário da turma": a release date per module, optional; a module without one opens by the course's
// rule counted from the turma's start (docs/turmas.md "Drip inside a turma").
import { useId } from 'react';
import { FormDialog } from '@/components/ui/form-dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { useFormDialogForm } from '@/components/ui/use-form-dialog-form';
import { z } from '@/platform/zod';
import { useSaveTurmaCalendar, useTurmaCalendar } from '../api/hooks';
import type { CalendarModule } from '../api/queries';

const calendarSchema = z.object({ dates: z.array(z.object({ module_id: z.string(), opens_on: z.string() })) });

function CalendarForm({ schoolId, turmaId, turmaName, modules, onClose }: { schoolId: string; turmaId: string; turmaName: string; modules: CalendarModule[]; onClose: () => void }) {
  const id = useId();
  const save = useSaveTurmaCalendar();
  const { form, dialog } = useFormDialogForm(
    calendarSchema,
    { dates: modules.map((m) => ({ module_id: m.id, opens_on: m.opens_on })) },
    {
      save: ({ dates }) => save.mutateAsync({ schoolId, turmaId, before: modules, after: Object.fromEntries(dates.map((d) => [d.module_id, d.opens_on])) }),
      onClose,
      taken: ['turma_module_dates_pkey', 'dates'],
    },
  );
  return (
    <FormDialog
      title={`Calendário da ${turmaName}`}
      description="Uma data por módulo, se quiser: o módulo abre às 00:00 (Brasília) desse dia para os alunos da turma. Sem data, vale a regra do curso contada do início da turma."
      {...dialog}
    >
      {modules.length === 0 ? (
        <p className="text-sm text-muted-foreground">Este curso ainda não tem módulos.</p>
      ) : (
        <div className="grid gap-3">
          {modules.map((m, i) => (
            <FormField key={m.id} id={`${id}-${m.id}`} label={m.title} hint="Vazio: regra do curso.">
              <Input type="date" {...form.register(`dates.${i}.opens_on`)} />
            </FormField>
          ))}
        </div>
      )}
    </FormDialog>
  );
}

export function TurmaCalendarDialog({ schoolId, turmaId, turmaName, courseId, onClose }: { schoolId: string; turmaId: string; turmaName: string; courseId: string; onClose: () => void }) {
  const calendar = useTurmaCalendar(turmaId, courseId);
  if (calendar.data) return <CalendarForm schoolId={schoolId} turmaId={turmaId} turmaName={turmaName} modules={calendar.data} onClose={onClose} />;
  return (
    <FormDialog title={`Calendário da ${turmaName}`} description="Carregando os módulos do curso." pending={false} onClose={onClose} onSubmit={(e) => e.preventDefault()}>
      {calendar.isError ? <LoadError title="Não foi possível carregar o calendário" onRetry={calendar.refetch} /> : <Skeleton className="h-32 rounded-xl" />}
    </FormDialog>
  );
}

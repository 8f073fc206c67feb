// "Mover de turma" (issue 40): another turma of the same course, or none. Only the enrollment changes:
// progress, quiz attempts, comments and certificates stay (move_enrollment_to_turma); the expiry follows
// the new turma's end unless staff set another. A full turma refuses ("Turma esgotada.").
import { FormDialog } from '@/components/ui/form-dialog';
import { FormField } from '@/components/ui/form-field';
import { Select } from '@/components/ui/select';
import { useFormDialogForm } from '@/components/ui/use-form-dialog-form';
import { turmaPeriod, useCourseTurmas } from '@/concepts/turmas';
import { z } from '@/platform/zod';
import { useMoveEnrollmentToTurma } from '../api/hooks';
import type { AdminEnrollment } from '../api/queries';

const moveSchema = z.object({ turma_id: z.string() });

export function MoveTurmaDialog({ enrollment, onClose }: { enrollment: AdminEnrollment; onClose: () => void }) {
  const turmas = useCourseTurmas(enrollment.course_id);
  const move = useMoveEnrollmentToTurma();
  const { form, dialog } = useFormDialogForm(moveSchema, { turma_id: enrollment.turma_id ?? '' }, {
    save: ({ turma_id }) => move.mutateAsync({ id: enrollment.id, turmaId: turma_id || null }),
    onClose,
    taken: ['enrollments_turma_id_fkey', 'turma_id'],
  });
  const name = enrollment.student?.name ?? 'Aluno';
  return (
    <FormDialog
      title="Mover de turma"
      description={`${name} em "${enrollment.course?.title ?? ''}". O progresso, as avaliações, os comentários e os certificados continuam com o aluno.`}
      {...dialog}
    >
      <FormField label="Turma" hint={turmas.isPending ? 'Carregando as turmas do curso…' : undefined}>
        {/* Mounted again once the options arrive, so that the current turma shows selected. */}
        <Select key={turmas.data ? 'loaded' : 'loading'} {...form.register('turma_id')}>
          <option value="">Sem turma</option>
          {(turmas.data ?? []).map((t) => (
            <option key={t.id} value={t.id}>
              {t.name} ({turmaPeriod(t)})
            </option>
          ))}
        </Select>
      </FormField>
    </FormDialog>
  );
}

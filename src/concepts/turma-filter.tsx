// The "Turma" filter beside the "Curso" one (issue 40): Relatórios and the dashboard count one turma's
// students when the chosen course has turmas. Nothing shows, and nothing is asked, without a course.
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { cn } from '@/utils/cn';
import { useCourseTurmas } from './turmas';

export function TurmaFilter({
  id,
  courseId,
  value,
  onChange,
  className,
}: {
  id: string;
  courseId: string;
  value: string;
  onChange: (turmaId: string) => void;
  className?: string;
}) {
  const turmas = useCourseTurmas(courseId);
  if (!turmas.data?.length) return null;
  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={id}>Turma</Label>
      <Select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Todas as turmas</option>
        {turmas.data.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </Select>
    </div>
  );
}

// The "Curso" filter of the staff's lists (Matrículas, Relatórios, Vendas, Comentários): every course
// of the school, or "Todos os cursos" (the empty value).
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { cn } from '@/utils/cn';

/** A course as the staff's pickers and filters list it. */
export interface CourseOption {
  id: string;
  title: string;
}

/** A staff dialog that creates (`editing` null) or edits a record sold with some of the school's courses
 * (a coupon, a plan). */
export interface CourseScopedDialogProps<T> {
  editing: T | null;
  schoolId: string;
  courses: CourseOption[];
  onClose: () => void;
}

/** The school's courses as a select's options, after whatever first option the select has. */
export function CourseOptions({ courses }: { courses: readonly CourseOption[] }) {
  return courses.map((c) => (
    <option key={c.id} value={c.id}>
      {c.title}
    </option>
  ));
}

export function CourseFilter({
  id,
  value,
  courses,
  onChange,
  className,
}: {
  id: string;
  value: string;
  courses: readonly CourseOption[];
  onChange: (courseId: string) => void;
  className?: string;
}) {
  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={id}>Curso</Label>
      <Select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Todos os cursos</option>
        <CourseOptions courses={courses} />
      </Select>
    </div>
  );
}

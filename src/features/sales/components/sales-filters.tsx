// Vendas' filters, each in the URL (useListParams): ?situacao=CONFIRMED&forma=PIX&curso=…&de=2026-11-01&ate=2026-11-30.
// A changed filter starts again at the first page.
import { useId } from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { CourseFilter, type CourseOption } from '@/concepts/course-filter';
import { Select } from '@/components/ui/select';
import { SALE_METHODS, SALE_STATUSES, type SalesFilters } from '../api/queries';
import { FILTER_PARAMS } from '../lib/filters';
import { METHOD_LABEL, STATUS_LABEL } from '../lib/labels';

export function SalesFiltersBar({ filters, courses, onChange }: { filters: SalesFilters; courses: CourseOption[]; onChange: (name: string, value: string) => void }) {
  const id = useId();
  return (
    <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5" role="group" aria-label="Filtros das vendas">
      <div className="grid gap-2">
        <Label htmlFor={`${id}-status`}>Situação</Label>
        <Select id={`${id}-status`} value={filters.status} onChange={(e) => onChange(FILTER_PARAMS.status, e.target.value)}>
          <option value="">Todas</option>
          {SALE_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABEL[s]}
            </option>
          ))}
        </Select>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-method`}>Forma</Label>
        <Select id={`${id}-method`} value={filters.method} onChange={(e) => onChange(FILTER_PARAMS.method, e.target.value)}>
          <option value="">Todas</option>
          {SALE_METHODS.map((m) => (
            <option key={m} value={m}>
              {METHOD_LABEL[m]}
            </option>
          ))}
        </Select>
      </div>
      <CourseFilter id={`${id}-course`} value={filters.courseId} courses={courses} onChange={(v) => onChange(FILTER_PARAMS.courseId, v)} />
      <div className="grid gap-2">
        <Label htmlFor={`${id}-from`}>De</Label>
        <Input id={`${id}-from`} type="date" value={filters.from} max={filters.to || undefined} onChange={(e) => onChange(FILTER_PARAMS.from, e.target.value)} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-to`}>Até</Label>
        <Input id={`${id}-to`} type="date" value={filters.to} min={filters.from || undefined} onChange={(e) => onChange(FILTER_PARAMS.to, e.target.value)} />
      </div>
    </div>
  );
}

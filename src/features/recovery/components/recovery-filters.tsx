// Recuperação's filters, each in the URL (useListParams): ?etapa=abandoned&curso=…&de=2026-11-01&ate=2026-11-30.
// "Etapa" is how the session ended (Abandonado, Pago…) or how far the buyer got (PIX gerado…).
import { useId } from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { CourseFilter, type CourseOption } from '@/concepts/course-filter';
import { SESSION_OUTCOMES, SESSION_STAGES, type RecoveryFilters } from '../api/queries';
import { FILTER_PARAMS } from '../lib/filters';
import { OUTCOME_LABEL, STAGE_LABEL } from '../lib/labels';

export function RecoveryFiltersBar({
  filters,
  courses,
  onChange,
}: {
  filters: RecoveryFilters;
  courses: CourseOption[];
  onChange: (name: string, value: string) => void;
}) {
  const id = useId();
  return (
    <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" role="group" aria-label="Filtros da recuperação">
      <div className="grid gap-2">
        <Label htmlFor={`${id}-stage`}>Etapa</Label>
        <Select
          id={`${id}-stage`}
          value={filters.stage}
          onChange={(e) => onChange(FILTER_PARAMS.stage, e.target.value)}
        >
          <option value="">Todas</option>
          <optgroup label="Situação">
            {SESSION_OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {OUTCOME_LABEL[o]}
              </option>
            ))}
          </optgroup>
          <optgroup label="Até onde chegou">
            {SESSION_STAGES.map((s) => (
              <option key={s} value={s}>
                {STAGE_LABEL[s]}
              </option>
            ))}
          </optgroup>
        </Select>
      </div>
      <CourseFilter
        id={`${id}-course`}
        value={filters.courseId}
        courses={courses}
        onChange={(v) => onChange(FILTER_PARAMS.courseId, v)}
      />
      <div className="grid gap-2">
        <Label htmlFor={`${id}-from`}>De</Label>
        <Input
          id={`${id}-from`}
          type="date"
          value={filters.from}
          max={filters.to || undefined}
          onChange={(e) => onChange(FILTER_PARAMS.from, e.target.value)}
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-to`}>Até</Label>
        <Input
          id={`${id}-to`}
          type="date"
          value={filters.to}
          min={filters.from || undefined}
          onChange={(e) => onChange(FILTER_PARAMS.to, e.target.value)}
        />
      </div>
    </div>
  );
}

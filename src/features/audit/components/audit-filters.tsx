// Registro de atividades' filters, each in the URL (useListParams): ?pessoa=…&objeto=courses&acao=update&de=…&ate=….
import { useId } from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { AUDIT_ACTIONS, type AuditActor, type AuditFilters } from '../api/queries';
import { FILTER_PARAMS, SCHOOL_PARAM } from '../lib/filters';
import { ACTION_LABEL, TABLE_LABEL } from '../lib/labels';

const TABLES = Object.entries(TABLE_LABEL).sort((a, b) => a[1].localeCompare(b[1], 'pt-BR'));

export function AuditFiltersBar({
  filters,
  actors,
  onChange,
  schools,
}: {
  filters: AuditFilters;
  actors: AuditActor[];
  onChange: (name: string, value: string) => void;
  /** The super admin's "Escola" filter; absent for a school's admin. */
  schools?: { options: { id: string; name: string }[]; value: string };
}) {
  const id = useId();
  return (
    <div
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5"
      role="group"
      aria-label="Filtros do registro de atividades"
    >
      {schools && (
        <div className="grid gap-2">
          <Label htmlFor={`${id}-school`}>Escola</Label>
          <Select id={`${id}-school`} value={schools.value} onChange={(e) => onChange(SCHOOL_PARAM, e.target.value)}>
            <option value="">Todas as escolas</option>
            {schools.options.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </Select>
        </div>
      )}
      <div className="grid gap-2">
        <Label htmlFor={`${id}-actor`}>Pessoa</Label>
        <Select
          id={`${id}-actor`}
          value={filters.actorId}
          onChange={(e) => onChange(FILTER_PARAMS.actorId, e.target.value)}
        >
          <option value="">Todas</option>
          {actors.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </Select>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-table`}>Objeto</Label>
        <Select
          id={`${id}-table`}
          value={filters.table}
          onChange={(e) => onChange(FILTER_PARAMS.table, e.target.value)}
        >
          <option value="">Todos</option>
          {TABLES.map(([table, label]) => (
            <option key={table} value={table}>
              {label}
            </option>
          ))}
        </Select>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-action`}>Ação</Label>
        <Select
          id={`${id}-action`}
          value={filters.action}
          onChange={(e) => onChange(FILTER_PARAMS.action, e.target.value)}
        >
          <option value="">Todas</option>
          {AUDIT_ACTIONS.map((a) => (
            <option key={a} value={a}>
              {ACTION_LABEL[a]}
            </option>
          ))}
        </Select>
      </div>
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

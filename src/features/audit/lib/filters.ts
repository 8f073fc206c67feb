// Registro de atividades' filters as the URL holds them (useListParams): ?pessoa=…&objeto=courses&acao=update&de=…&ate=….
import { AUDIT_ACTIONS, type AuditFilters } from '../api/queries';
import { TABLE_LABEL } from './labels';

export const FILTER_PARAMS = {
  actorId: 'pessoa',
  table: 'objeto',
  action: 'acao',
  from: 'de',
  to: 'ate',
} as const satisfies Record<keyof AuditFilters, string>;

/** The super admin's school filter (?escola=…): one of the schools offered, else every school. */
export const SCHOOL_PARAM = 'escola';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The filters the URL holds, each checked (an unknown value is "any"). */
export function filtersOf(param: (name: string) => string): AuditFilters {
  const day = (v: string) => (DAY.test(v) ? v : '');
  const actorId = param(FILTER_PARAMS.actorId);
  const table = param(FILTER_PARAMS.table);
  const action = param(FILTER_PARAMS.action);
  return {
    actorId: UUID.test(actorId) ? actorId : '',
    table: table in TABLE_LABEL ? table : '',
    action: AUDIT_ACTIONS.find((a) => a === action) ?? '',
    from: day(param(FILTER_PARAMS.from)),
    to: day(param(FILTER_PARAMS.to)),
  };
}

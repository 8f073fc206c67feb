// Registro de atividades → "Exportar CSV": every entry of the filters, written by the one CSV writer
// (src/utils/csv.ts), which neutralises a formula in any cell (names, titles and values are typed by people).
import { toCsv } from '@/utils/csv';
import type { AuditEntry } from '../api/queries';
import { ACTION_LABEL, ROLE_LABEL, SOURCE_LABEL, changedFields, fieldLabel, tableLabel, valueText } from './labels';

export const AUDIT_CSV_HEADER = [
  'Data',
  'Escola',
  'Pessoa',
  'E-mail',
  'Papel',
  'Origem',
  'Ação',
  'Objeto',
  'Nome do objeto',
  'Identificador',
  'Antes',
  'Depois',
];

const sideText = (e: AuditEntry, side: 'before' | 'after') =>
  changedFields(e)
    .filter((c) => c[side] !== undefined)
    .map((c) => `${fieldLabel(c.field)}: ${valueText(c.field, c[side])}`)
    .join('; ');

export function auditCsv(rows: AuditEntry[], formatDateTime: (d: string) => string): Promise<string> {
  return toCsv(
    AUDIT_CSV_HEADER,
    rows.map((e) => [
      formatDateTime(e.created_at),
      e.school_name ?? '',
      e.actor_id ? e.actor_name || 'Conta removida' : '',
      e.actor_email ?? '',
      e.actor_role ? (ROLE_LABEL[e.actor_role] ?? e.actor_role) : '',
      e.source_name ? `${SOURCE_LABEL[e.source]} (${e.source_name})` : SOURCE_LABEL[e.source],
      ACTION_LABEL[e.action],
      tableLabel(e.table_name),
      e.row_label ?? '',
      e.row_id,
      sideText(e, 'before'),
      sideText(e, 'after'),
    ]),
  );
}

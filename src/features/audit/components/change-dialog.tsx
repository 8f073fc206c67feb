// One entry of the log in a dialog: who (name, role, second factor), when, from where, and the fields
// before and after side by side (an insert has no "antes", a delete no "depois").
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { formatDateTime } from '@/utils/format';
import type { AuditEntry } from '../api/queries';
import {
  ACTION_LABEL,
  ROLE_LABEL,
  SOURCE_LABEL,
  changedFields,
  fieldLabel,
  valueText,
  whatText,
  whoText,
} from '../lib/labels';

export function ChangeDialog({
  entry,
  onOpenChange,
}: {
  entry: AuditEntry | null;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={!!entry} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl">{entry && <ChangeDetails entry={entry} />}</DialogContent>
    </Dialog>
  );
}

function ChangeDetails({ entry: e }: { entry: AuditEntry }) {
  const fields = changedFields(e);
  return (
    <>
      <DialogHeader>
        <DialogTitle>
          {ACTION_LABEL[e.action]} {whatText(e)}
        </DialogTitle>
        <DialogDescription>
          {whoText(e)}
          {e.actor_role &&
            ` (${ROLE_LABEL[e.actor_role] ?? e.actor_role}${e.actor_aal === 'aal2' ? ', com verificação em duas etapas' : ''})`}{' '}
          em {formatDateTime(e.created_at)} · Origem: {SOURCE_LABEL[e.source]}
          {e.source_name && ` (${e.source_name})`}
          {e.school_name && ` · ${e.school_name}`}
        </DialogDescription>
      </DialogHeader>
      <div className="rounded-lg border border-border">
        <table className="w-full table-fixed text-left text-sm">
          <caption className="sr-only">Antes e depois</caption>
          <thead className="bg-muted/50 text-xs text-muted-foreground uppercase">
            <tr>
              <th scope="col" className="w-[30%] px-3 py-2">
                Campo
              </th>
              <th scope="col" className="px-3 py-2">
                Antes
              </th>
              <th scope="col" className="px-3 py-2">
                Depois
              </th>
            </tr>
          </thead>
          <tbody>
            {fields.map((c) => (
              <tr key={c.field} className="border-t border-border align-top">
                <th scope="row" className="px-3 py-2 font-medium [overflow-wrap:anywhere]">
                  {fieldLabel(c.field)}
                </th>
                <td className="px-3 py-2 [overflow-wrap:anywhere] whitespace-pre-wrap text-muted-foreground">
                  {e.action === 'insert' ? '—' : valueText(c.field, c.before)}
                </td>
                <td className="px-3 py-2 [overflow-wrap:anywhere] whitespace-pre-wrap">
                  {e.action === 'delete' ? '—' : valueText(c.field, c.after)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-xs text-muted-foreground">Identificador: {e.row_id}</p>
    </>
  );
}

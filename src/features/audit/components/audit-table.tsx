// Registro de atividades' table: one row per change, newest first: when, (the school, for the super
// admin), who, what they did to which object, the changed fields in one line, and "Ver mudança" (the
// dialog with before and after side by side). On a phone the table scrolls sideways with the button
// pinned at the right edge, as Vendas does.
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/utils/format';
import type { AuditEntry } from '../api/queries';
import { ACTION_LABEL, ROLE_LABEL, SOURCE_LABEL, summaryText, whatText, whoText } from '../lib/labels';

const PINNED = 'sticky right-0 shadow-[-8px_0_8px_-8px_rgb(15_23_42/0.25)]';

export function AuditTable({
  rows,
  busy,
  showSchool,
  onOpen,
}: {
  rows: AuditEntry[];
  busy: boolean;
  showSchool: boolean;
  onOpen: (entry: AuditEntry) => void;
}) {
  const columns = ['Data', ...(showSchool ? ['Escola'] : []), 'Quem', 'Ação', 'Objeto', 'Mudança', 'Detalhes'];
  return (
    <div className="relative min-w-0 overflow-x-auto rounded-xl border border-border bg-white">
      <table className="w-full min-w-[860px] text-left text-sm" aria-busy={busy}>
        <caption className="sr-only">Registro de atividades</caption>
        <thead className="bg-muted/50 text-xs text-muted-foreground uppercase">
          <tr>
            {columns.map((c) => (
              <th
                key={c}
                scope="col"
                className={c === 'Detalhes' ? `${PINNED} bg-slate-50 px-3 py-3 text-right` : 'px-3 py-3'}
              >
                {c === 'Detalhes' ? <span className="sr-only">{c}</span> : c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((e) => (
            <tr key={e.id} className="border-t border-border align-top">
              <td className="px-3 py-3 whitespace-nowrap tabular-nums">
                {/* dd/mm/aaaa, hh:mm in Brazil's time zone, as the dialog says it */}
                {formatDateTime(e.created_at).split(', ')[0]}
                <span className="block text-xs text-muted-foreground">
                  {formatDateTime(e.created_at).split(', ')[1]}
                </span>
              </td>
              {showSchool && <td className="max-w-[10rem] px-3 py-3">{e.school_name ?? 'Plataforma'}</td>}
              <td className="max-w-[12rem] px-3 py-3">
                <p className="truncate font-medium">{whoText(e)}</p>
                <p className="truncate text-xs text-muted-foreground">
                  {/* The role, and how the change came when not from the panel; with no person, the function's name. */}
                  {e.actor_role ? (ROLE_LABEL[e.actor_role] ?? e.actor_role) : ''}
                  {e.actor_id && e.source !== 'api' && ` · ${SOURCE_LABEL[e.source]}`}
                  {!e.actor_id && e.source_name}
                </p>
              </td>
              <td className="px-3 py-3">
                <Badge
                  variant={e.action === 'delete' ? 'destructive' : e.action === 'insert' ? 'success' : 'secondary'}
                >
                  {ACTION_LABEL[e.action]}
                </Badge>
              </td>
              <td className="max-w-[14rem] px-3 py-3">
                <p className="line-clamp-2">{whatText(e)}</p>
              </td>
              <td className="max-w-[18rem] min-w-[10rem] px-3 py-3">
                <p className="line-clamp-3 text-muted-foreground [overflow-wrap:anywhere]" title={summaryText(e)}>
                  {summaryText(e) || '—'}
                </p>
              </td>
              <td className={`${PINNED} bg-white px-3 py-3 text-right`}>
                <Button variant="outline" size="sm" onClick={() => onOpen(e)}>
                  Ver mudança
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

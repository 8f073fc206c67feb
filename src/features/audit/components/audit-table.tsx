// Registro de atividades' table: one row per change, newest first: when, (the school, for the super
// admin), who, what they did to which object, the changed fields in one line, and "Ver mudança" (the
// dialog with before and after side by side). On a phone the table scrolls sideways with the button
// pinned at the right edge, as Vendas does.
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatDate } from '@/utils/format';
import type { AuditEntry } from '../api/queries';
import { ACTION_LABEL, ROLE_LABEL, SOURCE_LABEL, summaryText, whatText, whoText } from '../lib/labels';

const PINNED = 'sticky right-0 shadow-[-8px_0_8px_-8px_rgb(15_23_42/0.25)]';
const timeOf = (iso: string) => new Date(iso).toLocaleTimeString('pt-BR', { hour: '2-digit', minute: '2-digit' });

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
                {formatDate(e.created_at)}
                <span className="block text-xs text-muted-foreground">{timeOf(e.created_at)}</span>
              </td>
              {showSchool && <td className="max-w-[10rem] px-3 py-3">{e.school_name ?? 'Plataforma'}</td>}
              <td className="max-w-[12rem] px-3 py-3">
                <p className="truncate font-medium">{whoText(e)}</p>
                <p className="truncate text-xs text-muted-foreground">
                  {e.actor_role ? (ROLE_LABEL[e.actor_role] ?? e.actor_role) : e.actor_id ? '' : SOURCE_LABEL[e.source]}
                  {e.actor_id && e.source !== 'api' && ` · ${SOURCE_LABEL[e.source]}`}
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
                <p className="line-clamp-3 text-muted-foreground" title={summaryText(e)}>
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

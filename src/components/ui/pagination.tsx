import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from './button';

/**
 * Previous/next pager for server-side pages (0-based `page`). With `noun` (singular, plural) it also
 * says how many rows match in all, even when they fit on one page.
 */
export function Pagination({
  page,
  pageSize,
  total,
  onPageChange,
  label = 'Paginação',
  noun,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPageChange: (page: number) => void;
  label?: string;
  noun?: [singular: string, plural: string];
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const count = noun && (
    <p className="text-sm text-muted-foreground" aria-live="polite">
      {total.toLocaleString('pt-BR')} {total === 1 ? noun[0] : noun[1]}
    </p>
  );
  if (pages <= 1) return count || null;
  return (
    <div className="grid gap-2">
      {count}
      <nav aria-label={label} className="flex items-center justify-between gap-3 text-sm">
        <Button variant="outline" size="sm" onClick={() => onPageChange(page - 1)} disabled={page <= 0}>
          <ChevronLeft aria-hidden="true" className="size-4" /> Anterior
        </Button>
        <span aria-live="polite">
          Página {page + 1} de {pages}
        </span>
        <Button variant="outline" size="sm" onClick={() => onPageChange(page + 1)} disabled={page >= pages - 1}>
          Próxima <ChevronRight aria-hidden="true" className="size-4" />
        </Button>
      </nav>
    </div>
  );
}

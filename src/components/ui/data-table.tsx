import type { ReactNode } from 'react';

/**
 * A staff table (Planos, Cupons, Assinantes): named for screen readers by its caption, a header row of
 * column names, the rows as children. It scrolls sideways on a phone, with no CSS of its own (every route
 * pays for CSS).
 */
export function DataTable({
  caption,
  columns,
  minWidth,
  children,
}: {
  caption: ReactNode;
  columns: readonly string[];
  /** Below this width the table scrolls instead of squeezing its columns, e.g. '48rem'. */
  minWidth: string;
  /** The <tr>s of the body. */
  children: ReactNode;
}) {
  return (
    <div className="overflow-x-auto rounded-xl border border-border bg-white">
      <table className="w-full text-left text-sm" style={{ minWidth }}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-muted/50 text-xs text-muted-foreground uppercase">
          <tr>
            {columns.map((h) => (
              <th key={h} scope="col" className="px-4 py-3">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

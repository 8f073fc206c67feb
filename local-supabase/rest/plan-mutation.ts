// Planning POST (insert, upsert), PATCH and DELETE: the columns written and the conflict target,
// checked against the table; the rows to change (the top level's filters); the representation.
import type { MutationKind, MutationRequest, Row } from './api-request.ts';
import { payloadColumnNotFound } from './errors.ts';
import { planRead, tableSource, type ReadPlan } from './plan.ts';
import type { ParsedQuery } from './query-params.ts';
import type { SchemaCache, Table } from './schema-cache.ts';
import { parseSelect } from './select-parser.ts';

/** The alias of the modified table in the statement (its WHERE conditions name it). */
export const MUTATION_ALIAS = 'pgrst_m';

/** The CTE exposing the modified rows to the representation. */
export const MUTATION_SOURCE = 'pgrst_source';

export interface MutationPlan {
  kind: MutationKind;
  table: Table;
  rows: Row[];
  /** The columns written: `columns=`, else the keys of the body's rows. None: an update changes nothing. */
  columns: string[];
  /** Upsert: the conflict target (`on_conflict=`, else the primary key) and what to do on a conflict. */
  resolution: 'merge-duplicates' | 'ignore-duplicates' | null;
  onConflict: string[];
  /** Prefer: missing=default: columns absent from a row take their default. */
  missingDefault: boolean;
  /** update, delete: the rows to change, as a read of the table under MUTATION_ALIAS. */
  where: ReadPlan | null;
  /** The representation, read from MUTATION_SOURCE (planned, so checked, even when not returned). */
  representation: ReadPlan;
  returnsRepresentation: boolean;
}

export async function planMutation(cache: SchemaCache, table: Table, request: MutationRequest, aggregatesEnabled: boolean): Promise<MutationPlan> {
  const { kind, query, prefer } = request;
  const columns =
    kind === 'insert' ? (query.columns ?? [...new Set(request.rows.flatMap((r) => Object.keys(r)))]) : kind === 'update' ? (query.columns ?? Object.keys(request.rows[0])) : [];
  checkColumns(table, columns);
  let onConflict: string[] = [];
  if (kind === 'insert' && prefer.resolution) {
    onConflict = query.onConflict ?? table.pk;
    checkColumns(table, onConflict);
  } else if (kind === 'insert' && query.onConflict) {
    checkColumns(table, query.onConflict);
  }
  const where = kind === 'insert' ? null : await planRead(cache, filtersOnly(request), tableSource(table), [], { alias: MUTATION_ALIAS });
  const returnsRepresentation = prefer.return === 'representation';
  const items = returnsRepresentation ? parseSelect(query.select ?? '*') : [];
  const representation = await planRead(cache, query, tableSource(table, MUTATION_SOURCE), items, { aggregatesEnabled });
  return {
    kind,
    table,
    rows: request.rows,
    columns,
    resolution: prefer.resolution,
    onConflict,
    missingDefault: prefer.missing === 'default',
    where,
    representation,
    returnsRepresentation,
  };
}

function checkColumns(table: Table, columns: string[]) {
  for (const c of columns) if (!table.columnMap.has(c)) throw payloadColumnNotFound(table.name, c);
}

function filtersOnly(request: MutationRequest): ParsedQuery {
  return { select: null, columns: null, onConflict: null, conditions: new Map([['', request.filters]]), order: new Map(), limit: new Map(), offset: new Map() };
}

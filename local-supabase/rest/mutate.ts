// SQL of POST (insert, upsert), PATCH and DELETE. The statement modifies rows in a CTE that
// returns whole rows (`pgrst_ret`), exposes them as `pgrst_source`, and builds the representation
// from there with the read builder, so a mutation is one statement in one transaction.
// The JSON body is one bound parameter turned into rows by json_populate_record(set).
import { pgrstError, payloadColumnNotFound } from './errors.ts';
import { qualified, quoteIdent } from './ident.ts';
import type { Params } from './read-builder.ts';
import type { Table } from './schema-cache.ts';

export const MUTATION_ALIAS = 'pgrst_m';

type Row = Record<string, unknown>;

export function bodyRows(body: unknown, allowArray: boolean): Row[] {
  const isRow = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isRow(body)) return [body];
  if (allowArray && Array.isArray(body) && body.every(isRow)) return body;
  throw pgrstError(400, 'PGRST102', allowArray ? 'All object keys must match' : 'Empty or invalid json');
}

function checkColumns(table: Table, columns: string[]) {
  for (const c of columns) if (!table.columnMap.has(c)) throw payloadColumnNotFound(table.name, c);
}

export interface InsertOptions {
  table: Table;
  rows: Row[];
  columns: string[] | null;
  onConflict: string[] | null;
  resolution: 'merge-duplicates' | 'ignore-duplicates' | null;
  missingDefault: boolean;
}

/** `insert … returning` for the pgrst_ret CTE. */
export function insertSql(o: InsertOptions, params: Params): string {
  const { table } = o;
  const columns = o.columns ?? [...new Set(o.rows.flatMap((r) => Object.keys(r)))];
  checkColumns(table, columns);
  const target = `${qualified(table.schema, table.name)} as ${quoteIdent(MUTATION_ALIAS)}`;
  const rowType = `null::${qualified(table.schema, table.name)}`;
  const cols = columns.map(quoteIdent).join(', ');
  let sql: string;
  if (!columns.length) {
    // `{}` rows: every column takes its default.
    sql = `insert into ${target} select from json_populate_recordset(${rowType}, ${params.add(JSON.stringify(o.rows))}::json) as _`;
  } else if (o.missingDefault) {
    // Prefer: missing=default, as PostgREST does it: each row is laid over the defaults of the
    // columns given, evaluated for every row (so a sequence advances once per row, as there).
    const defaults = columns.flatMap((c) => {
      const d = table.columnMap.get(c)!.default;
      return d === null ? [] : [`${params.add(c)}, ${d}`];
    });
    const e = quoteIdent('pgrst_e');
    const rows = `(select jsonb_agg(jsonb_build_object(${defaults.join(', ')}) || ${e}) from jsonb_array_elements(${params.add(JSON.stringify(o.rows))}::jsonb) as ${e})`;
    sql = `insert into ${target} (${cols}) select ${cols} from jsonb_populate_recordset(${rowType}, ${rows}) as _`;
  } else {
    sql = `insert into ${target} (${cols}) select ${cols} from json_populate_recordset(${rowType}, ${params.add(JSON.stringify(o.rows))}::json) as _`;
  }
  if (o.resolution) {
    const conflict = o.onConflict ?? table.pk;
    checkColumns(table, conflict);
    if (conflict.length) {
      const updates = columns.map((c) => `${quoteIdent(c)} = excluded.${quoteIdent(c)}`);
      sql += ` on conflict (${conflict.map(quoteIdent).join(', ')}) ` + (o.resolution === 'merge-duplicates' && updates.length ? `do update set ${updates.join(', ')}` : 'do nothing');
    }
  } else if (o.onConflict) {
    checkColumns(table, o.onConflict);
  }
  // xmax = 0 tells a fresh insert from a row an upsert updated.
  return `${sql} returning ${quoteIdent(MUTATION_ALIAS)} as r, (${quoteIdent(MUTATION_ALIAS)}.xmax = 0) as ins`;
}

export function updateSql(table: Table, row: Row, columns: string[] | null, where: string[], params: Params): string | null {
  const cols = columns ?? Object.keys(row);
  checkColumns(table, cols);
  if (!cols.length) return null;
  const body = quoteIdent('pgrst_body');
  const sets = cols.map((c) => `${quoteIdent(c)} = ${body}.${quoteIdent(c)}`).join(', ');
  return (
    `update ${qualified(table.schema, table.name)} as ${quoteIdent(MUTATION_ALIAS)} set ${sets} ` +
    `from (select * from json_populate_record(null::${qualified(table.schema, table.name)}, ${params.add(JSON.stringify(row))}::json)) as ${body}` +
    (where.length ? ` where ${where.join(' and ')}` : '') +
    ` returning ${quoteIdent(MUTATION_ALIAS)} as r, false as ins`
  );
}

export function deleteSql(table: Table, where: string[]): string {
  return (
    `delete from ${qualified(table.schema, table.name)} as ${quoteIdent(MUTATION_ALIAS)}` +
    (where.length ? ` where ${where.join(' and ')}` : '') +
    ` returning ${quoteIdent(MUTATION_ALIAS)} as r, false as ins`
  );
}

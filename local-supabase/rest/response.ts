// Response shaping (PostgREST's Response): status, headers (Content-Range, Content-Type,
// Preference-Applied) and body from the one row a statement answers, the plan and the preferences.
// What must undo the transaction (a single object that is not one row, max-affected) is decided here
// too, before the commit.
import type { SqlResult, Verdict } from '../db/engine.ts';
import type { HttpError } from '../http.ts';
import type { MutationKind } from './api-request.ts';
import { pgrstError } from './errors.ts';
import type { CallPlan } from './plan-call.ts';
import { checkMaxAffected, preferenceApplied, type Accept, type Plan, type Preferences } from './request.ts';

export interface Reply {
  status: number;
  body?: string;
  headers: Record<string, string>;
}

/** What one statement returns: the rows read or modified, the total for counts, and the JSON. */
export interface ResultRow {
  n: number | string;
  total: number | string | null;
  inserted: number | string | null;
  body: string | null;
}

const OBJECT_TYPE = 'application/vnd.pgrst.object+json; charset=utf-8';
const CSV_TYPE = 'text/csv; charset=utf-8';

/** Rows read from `offset`: 200, or 206 when fewer than the total; 416 past the end; 406 for an object that is not one row. */
export function readReply(row: ResultRow, offset: number, accept: Accept, prefer: Preferences): Reply {
  const n = Number(row.n);
  const total = row.total === null ? null : Number(row.total);
  if (accept.shape === 'object' && n !== 1) throw singleError(n);
  const headers: Record<string, string> = { 'Content-Range': contentRange(offset, offset + n - 1, total) };
  if (accept.shape === 'object') headers['Content-Type'] = OBJECT_TYPE;
  if (accept.csv) headers['Content-Type'] = CSV_TYPE;
  let status = 200;
  if (total !== null) {
    if (offset > total) {
      throw pgrstError(416, 'PGRST103', 'Requested range not satisfiable', `An offset of ${offset} was requested, but there are only ${total} rows.`, null, headers);
    }
    if (n < total) status = 206;
  }
  Object.assign(headers, preferenceApplied(prefer, ['count']));
  return { status, body: row.body ?? '', headers };
}

/** The row of a mutation that changed nothing (no statement ran). */
export function emptyMutationRow(accept: Accept): ResultRow {
  if (accept.shape === 'object') throw singleError(0);
  return { n: 0, total: null, inserted: 0, body: '[]' };
}

/** 201 for an insert (200 when an upsert only updated), else 200 with a representation, 204 without. */
export function mutationReply(kind: MutationKind, row: ResultRow, accept: Accept, prefer: Preferences, representation: boolean): Reply {
  const n = Number(row.n);
  const headers: Record<string, string> = {};
  const count = prefer.count ? n : null;
  headers['Content-Range'] = kind === 'update' ? contentRange(0, n - 1, count) : contentRange(1, 0, count);
  Object.assign(headers, preferenceApplied(prefer, kind === 'insert' ? ['resolution', 'missing', 'return', 'count'] : ['return', 'count']));
  let status: number;
  if (kind === 'insert') status = prefer.resolution === 'merge-duplicates' && Number(row.inserted) === 0 && n > 0 ? 200 : 201;
  else status = representation ? 200 : 204;
  if (!representation) return { status, headers };
  if (accept.shape === 'object') headers['Content-Type'] = OBJECT_TYPE;
  if (accept.csv) headers['Content-Type'] = CSV_TYPE;
  return { status, body: row.body ?? '[]', headers };
}

/** A call's result: nothing (204), one row as an object, a scalar, or rows like a read. */
export function callReply(plan: CallPlan, row: ResultRow, accept: Accept, prefer: Preferences): Reply {
  const { kind, offset } = plan;
  const { fn } = plan.call;
  if (kind === 'void') return { status: 204, headers: { 'Content-Range': contentRange(offset, offset + Number(row.n) - 1, null) } };
  // A function returning one row answers with an object.
  if (kind === 'rows' && !fn.returnsSet) return readReply(row, offset, { ...accept, shape: accept.shape === 'object' || Number(row.n) === 1 ? 'object' : 'array' }, prefer);
  if (kind === 'scalar') {
    if (accept.shape === 'object' && fn.returnsSet && Number(row.n) !== 1) throw singleError(Number(row.n));
    return readReply({ ...row, n: fn.returnsSet ? row.n : 1 }, offset, { ...accept, shape: 'array' }, prefer);
  }
  return readReply(row, offset, accept, prefer);
}

/** `Accept: application/vnd.pgrst.plan`: the EXPLAIN output as JSON or text. */
export function explainReply(rows: Record<string, unknown>[], plan: Plan): Reply {
  const lines = rows.map((row) => row['QUERY PLAN']);
  const body = plan.format === 'json' ? (typeof lines[0] === 'string' ? lines[0] : JSON.stringify(lines[0])) : lines.join('\n');
  return { status: 200, body, headers: { 'Content-Type': `application/vnd.pgrst.plan+${plan.format}; for="${plan.forType}"; charset=utf-8` } };
}

/** "Plan Rows" of an `explain (format json)` (count=planned). */
export function plannedRows(rows: Record<string, unknown>[]): number {
  const value = rows[0]?.['QUERY PLAN'];
  const parsed = (typeof value === 'string' ? JSON.parse(value) : value) as { Plan?: { 'Plan Rows'?: number } }[];
  return Number(parsed[0]?.Plan?.['Plan Rows'] ?? 0);
}

/** How Prefer: tx ends the request's transaction. */
function txVerdict(prefer: Preferences): Verdict {
  return prefer.tx === 'rollback' ? 'rollback' : 'commit';
}

/** A read: Prefer: tx=rollback ends even a read in a rollback; otherwise the statement commits in one go. */
export function readVerdict(prefer: Preferences): ((result: SqlResult<ResultRow>) => Verdict) | undefined {
  return prefer.tx === 'rollback' ? () => txVerdict(prefer) : undefined;
}

/** A mutation: a single object asked for and not one row changed undoes it (as PostgREST does); so does max-affected. */
export function mutationVerdict(kind: MutationKind, accept: Accept, prefer: Preferences): (result: SqlResult<ResultRow>) => Verdict {
  return (r) => {
    const affected = Number(r.rows[0].n);
    if (accept.shape === 'object' && affected !== 1) throw singleError(affected);
    if (kind !== 'insert') checkMaxAffected(prefer, affected);
    return txVerdict(prefer);
  };
}

/**
 * A call: max-affected (strict) and tx=rollback look at the result first; otherwise the call commits in
 * one go, like a read (on PostgreSQL one round trip with a prepared statement: the planner's work on a
 * function inlined into the call, such as student_catalog, is done once per connection, not per call).
 */
export function callVerdict(prefer: Preferences): ((result: SqlResult<ResultRow>) => Verdict) | undefined {
  if (prefer.tx !== 'rollback' && !(prefer.handling === 'strict' && prefer.maxAffected !== null)) return undefined;
  return (r) => {
    checkMaxAffected(prefer, Number(r.rows[0].n));
    return txVerdict(prefer);
  };
}

export function contentRange(lower: number, upper: number, total: number | null): string {
  const range = total !== 0 && lower <= upper ? `${lower}-${upper}` : '*';
  return `${range}/${total === null ? '*' : total}`;
}

function singleError(n: number): HttpError {
  return pgrstError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', `The result contains ${n} rows`);
}

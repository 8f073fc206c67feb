// Request parsing (PostgREST's ApiRequest): what an HTTP request to /rest/v1 asks for, as plain data
// (target, media type, preferences, filters, select, order, range, body). Nothing here looks at the
// schema: planning (plan*.ts) resolves these names. Header grammars are in request.ts, the query
// string's in query-params.ts and select-parser.ts.
import type { IncomingMessage } from 'node:http';
import { readBody } from '../http.ts';
import { pgrstError } from './errors.ts';
import { parseQuery, type Condition, type ParsedQuery } from './query-params.ts';
import { parseAccept, parsePrefer, parseRange, type Accept, type Preferences } from './request.ts';

export type Target = { kind: 'root' } | { kind: 'table'; name: string } | { kind: 'rpc'; name: string };

export type Row = Record<string, unknown>;

export type MutationKind = 'insert' | 'update' | 'delete';

/** What the path names: the OpenAPI root, a table or view, or a function under /rpc. */
export function parseTarget(method: string, path: string): Target {
  const segments = path.split('/').filter(Boolean).map((s) => decodeURIComponent(s));
  if (segments.length === 0) {
    if (method !== 'GET' && method !== 'HEAD') throw unsupportedMethod(method);
    return { kind: 'root' };
  }
  if (segments[0] === 'rpc' && segments.length === 2) return { kind: 'rpc', name: segments[1] };
  if (segments.length !== 1) throw pgrstError(404, 'PGRST125', `Invalid path specified in request URL`);
  return { kind: 'table', name: segments[0] };
}

export function unsupportedMethod(method: string) {
  return pgrstError(405, 'PGRST117', `Unsupported HTTP method: ${method}`);
}

/** The JSON body of POST and PATCH (an empty body is `{}`). */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const raw = (await readBody(req)).toString('utf8');
  if (!raw.trim()) return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw pgrstError(400, 'PGRST102', 'Empty or invalid json');
  }
}

export interface ReadRequest {
  accept: Accept;
  prefer: Preferences;
  query: ParsedQuery;
}

/** GET / HEAD of a table: the query string, with `Range` applied to the top level. */
export function parseReadRequest(req: IncomingMessage, url: URL, planEnabled: boolean): ReadRequest {
  const accept = parseAccept(req, planEnabled);
  const prefer = parsePrefer(req);
  const query = parseQuery(url.searchParams);
  applyRange(req, query);
  return { accept, prefer, query };
}

export interface MutationRequest {
  kind: MutationKind;
  accept: Accept;
  prefer: Preferences;
  /** Filters of the top level: the rows to change (update, delete). */
  filters: Condition[];
  /** The rest of the query: `columns`, `on_conflict`, and the select, filters and order of the representation. */
  query: ParsedQuery;
  /** The body's rows (insert: one or many; update: one; delete: none). */
  rows: Row[];
}

export function parseMutationRequest(req: IncomingMessage, url: URL, kind: MutationKind, body: unknown, planEnabled: boolean): MutationRequest {
  const accept = parseAccept(req, planEnabled);
  const prefer = parsePrefer(req);
  const query = parseQuery(url.searchParams);
  const filters = query.conditions.get('') ?? [];
  // The platform preloads safeupdate for API requests: an UPDATE or DELETE without a filter is refused.
  if (kind !== 'insert' && filters.length === 0) {
    throw pgrstError(400, '21000', `${kind.toUpperCase()} requires a WHERE clause`);
  }
  query.conditions.delete('');
  query.limit.delete('');
  query.offset.delete('');
  const rows = kind === 'insert' ? bodyRows(body, true) : kind === 'update' ? bodyRows(body, false) : [];
  return { kind, accept, prefer, filters, query, rows };
}

function bodyRows(body: unknown, allowArray: boolean): Row[] {
  const isRow = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isRow(body)) return [body];
  if (allowArray && Array.isArray(body) && body.every(isRow)) return body;
  throw pgrstError(400, 'PGRST102', allowArray ? 'All object keys must match' : 'Empty or invalid json');
}

export interface CallRequest {
  accept: Accept;
  prefer: Preferences;
  /** The Accept header as sent (named in a 406). */
  acceptHeader: string | undefined;
  isPost: boolean;
  /** POST: the JSON object of named arguments. GET: the query parameters (arguments and filters). */
  body: Row | null;
  searchParams: URLSearchParams;
}

/** `/rpc/<fn>`: GET, HEAD or POST with a JSON object. */
export function parseCallRequest(req: IncomingMessage, url: URL, body: unknown, planEnabled: boolean): CallRequest {
  const method = req.method ?? 'GET';
  if (!['GET', 'HEAD', 'POST'].includes(method)) throw unsupportedMethod(method);
  const accept = parseAccept(req, planEnabled);
  const prefer = parsePrefer(req);
  const isPost = method === 'POST';
  if (isPost && (typeof body !== 'object' || body === null || Array.isArray(body))) throw pgrstError(400, 'PGRST102', 'Empty or invalid json');
  return { accept, prefer, acceptHeader: req.headers.accept, isPost, body: isPost ? (body as Row) : null, searchParams: url.searchParams };
}

/**
 * The filters, order and range of a call's result: the query parameters that are not arguments
 * (which ones are arguments is known once the function is, so planning calls this).
 */
export function parseCallQuery(req: IncomingMessage, searchParams: URLSearchParams, argumentNames: Set<string>): ParsedQuery {
  const query = parseQuery(searchParams, argumentNames);
  applyRange(req, query);
  return query;
}

/** `Range: a-b` narrows limit/offset of the top level as PostgREST does. */
function applyRange(req: IncomingMessage, q: ParsedQuery): void {
  const range = parseRange(req);
  if (!range) return;
  const offset = q.offset.get('') ?? range.from;
  q.offset.set('', offset);
  if (range.to !== null) {
    const size = range.to - range.from + 1;
    const limit = q.limit.get('');
    q.limit.set('', limit === undefined ? size : Math.min(limit, size));
  }
}

// /rest/v1: the PostgREST subset supabase-js (postgrest-js v2) uses. Each request is parsed and
// resolved against the schema cache first, then runs as ONE statement in ONE transaction as the
// caller's role (asCaller), so RLS and grants decide; response bodies are built as JSON in SQL.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, runAsCaller, HttpError, JwtError, readBody, sendJson, type Handler, type RequestAuth, type ServerContext } from '../http.ts';
import type { SqlResult, Verdict } from '../db/engine.ts';
import { closest, fromDbError, pgrstError, tableNotFound } from './errors.ts';
import { bodyRows, deleteSql, insertSql, MUTATION_ALIAS, updateSql } from './mutate.ts';
import { parseQuery, type ParsedQuery } from './query-params.ts';
import { columnTypes, Params, ReadBuilder, type Node, type Source } from './read-builder.ts';
import { checkMaxAffected, requestSchema, parseAccept, parsePrefer, parseRange, preferenceApplied, type Accept, type Plan, type Preferences } from './request.ts';
import { argumentNames, callSql, resolveCall, resultKind } from './rpc.ts';
import { effective, readDbSettings, restSettings } from './settings.ts';
import { SchemaCache, type Table } from './schema-cache.ts';
import { parseSelect, type SelectItem } from './select-parser.ts';
import { qualified, quoteIdent } from './ident.ts';

interface Reply {
  status: number;
  body?: string;
  headers: Record<string, string>;
}

/** What one statement returns: the rows read or modified, the total for counts, and the JSON. */
interface ResultRow {
  n: number | string;
  total: number | string | null;
  inserted: number | string | null;
  body: string | null;
}

export function createRestHandler(ctx: ServerContext): Handler & { close?: () => Promise<void>; cache: SchemaCache } {
  const settings = restSettings(ctx);
  // One schema cache per exposed schema, as PostgREST keeps one per schema of db-schemas.
  const caches = new Map<string, SchemaCache>();
  const cacheFor = (schema: string): SchemaCache => {
    let c = caches.get(schema);
    if (!c) caches.set(schema, (c = new SchemaCache(ctx.engine, schema)));
    return c;
  };
  const cache = cacheFor(settings.schemas[0]);
  // PostgREST's in-database configuration: read with the first request, again with each cache reload.
  let dbSettings: Promise<void> | null = null;
  const loadDbSettings = (): Promise<void> =>
    (dbSettings ??= readDbSettings(ctx.engine).then(
      (db) => void (settings.db = db),
      (e: unknown) => {
        dbSettings = null;
        throw e;
      },
    ));

  const handler = async (req: IncomingMessage, res: ServerResponse, path: string, url: URL) => {
    let auth: RequestAuth;
    try {
      auth = await authenticate(req, ctx.config);
    } catch (e) {
      if (!(e instanceof JwtError)) throw e;
      const code = e.expired ? 'PGRST303' : 'PGRST301';
      return sendJson(res, 401, { code, details: null, hint: null, message: e.message }, {
        'WWW-Authenticate': `Bearer error="invalid_token", error_description="${e.message}"`,
      });
    }
    let reply: Reply;
    try {
      const method = req.method ?? 'GET';
      const schemaCache = cacheFor(schemaOf(req));
      const generation = schemaCache.generation;
      await loadDbSettings();
      const body = method === 'POST' || method === 'PATCH' ? await readJsonBody(req) : undefined;
      try {
        reply = await route(req, schemaCache, path, url, auth, body);
      } catch (e) {
        // A name the cache does not know (or knows wrongly): reload it once and try again. The
        // failed attempt changed nothing: planning errors come before SQL, SQL errors roll back.
        const code = e instanceof HttpError ? e.body.code : (e as { code?: unknown }).code;
        if (typeof code !== 'string' || !CACHE_MISS_CODES.has(code) || schemaCache.generation !== generation) throw e;
        dbSettings = null;
        await Promise.all([schemaCache.reload(), loadDbSettings()]);
        reply = await route(req, schemaCache, path, url, auth, body);
      }
    } catch (e) {
      const mapped = fromDbError(e, auth.role);
      if (mapped instanceof HttpError) return sendJson(res, mapped.status, mapped.body, mapped.headers);
      throw mapped;
    }
    const isHead = req.method === 'HEAD';
    // With more than one schema exposed, PostgREST names the schema that answered.
    if (settings.schemas.length > 1) reply.headers['Content-Profile'] ??= schemaOf(req);
    sendJson(res, reply.status, isHead ? undefined : reply.body, reply.headers);
  };

  /** The schema of the request (Accept-Profile / Content-Profile), one of `[api] schemas`. */
  function schemaOf(req: IncomingMessage): string {
    return requestSchema(req, settings.schemas);
  }

  async function route(req: IncomingMessage, cache: SchemaCache, path: string, url: URL, auth: RequestAuth, body: unknown): Promise<Reply> {
    const segments = path.split('/').filter(Boolean).map((s) => decodeURIComponent(s));
    const method = req.method ?? 'GET';
    if (segments.length === 0) {
      if (method !== 'GET' && method !== 'HEAD') throw pgrstError(405, 'PGRST117', `Unsupported HTTP method: ${method}`);
      // The OpenAPI root: list what is exposed (enough for tools that probe it).
      await cache.ensureLoaded();
      const names = cache.tableNames();
      return { status: 200, body: JSON.stringify({ swagger: '2.0', info: { title: 'local-supabase', version: '12' }, paths: Object.fromEntries(names.map((t) => [`/${t}`, {}])) }), headers: {} };
    }
    if (segments[0] === 'rpc' && segments.length === 2) {
      return rpc(req, cache, segments[1], url, auth, body);
    }
    if (segments.length !== 1) throw pgrstError(404, 'PGRST125', `Invalid path specified in request URL`);
    const table = await cache.lookup(() => cache.table(segments[0]));
    if (!table) throw tableNotFound(segments[0], closest(segments[0], cache.tableNames(), 0.75), cache.schema);
    switch (method) {
      case 'GET':
      case 'HEAD':
        return read(req, cache, table, url, auth);
      case 'POST':
        return mutate(req, cache, table, url, auth, 'insert', body);
      case 'PATCH':
        return mutate(req, cache, table, url, auth, 'update', body);
      case 'DELETE':
        return mutate(req, cache, table, url, auth, 'delete', body);
      default:
        throw pgrstError(405, 'PGRST117', `Unsupported HTTP method: ${method}`);
    }
  }

  const tableSource = (table: Table, sql = qualified(table.schema, table.name)): Source => ({
    sql,
    label: table.name,
    columns: columnTypes(table.columns),
    table: table.name,
  });

  /** The JSON of the rows of `node` (array, or the first row for the object media type). */
  function bodySql(rb: ReadBuilder, node: Node, accept: Accept, paginate = true): string {
    const t = quoteIdent('pgrst_t');
    if (accept.csv) {
      // PostgREST's CSV: the keys of the first row as the header, then each row as PostgreSQL's
      // record text without its parentheses (its quoting rules: "" around values with , " ( ) \ or spaces).
      const sub = rb.selectSql(node, [], { paginate });
      const h = quoteIdent('pgrst_h');
      const header = `(select coalesce(string_agg(pgrst_k, ','), '') from (select json_object_keys(row_to_json(${h})) as pgrst_k from (select * from (${sub}) as ${h} limit 1) as ${h}) as pgrst_a)`;
      const rows = `coalesce(string_agg(substring(${t}::text, 2, length(${t}::text) - 2), chr(10)), '')`;
      return `select count(*) as n, ${header} || chr(10) || ${rows} as body from (${sub}) as ${t}`;
    }
    let json = accept.shape === 'object' ? `(json_agg(${t})->0)` : `coalesce(json_agg(${t}), '[]')`;
    if (accept.stripNulls) json = `json_strip_nulls(${json})`;
    const text = accept.shape === 'object' ? `coalesce(${json}::text, 'null')` : `${json}::text`;
    return `select count(*) as n, ${text} as body from (${rb.selectSql(node, [], { paginate })}) as ${t}`;
  }

  async function read(req: IncomingMessage, cache: SchemaCache, table: Table, url: URL, auth: RequestAuth): Promise<Reply> {
    const accept = parseAccept(req, effective(settings, 'db_plan_enabled'));
    const prefer = parsePrefer(req);
    const q = parseQuery(url.searchParams);
    applyRange(req, q);
    const rb = new ReadBuilder(cache, q, undefined, effective(settings, 'db_aggregates_enabled'));
    const node = await rb.plan(tableSource(table), selectItems(q));
    const isHead = req.method === 'HEAD';
    // count=planned is the planner's estimate (PostgREST: EXPLAIN of the count query), asked after.
    const total = prefer.count === 'exact' || prefer.count === 'estimated' ? `(${rb.countSql(node)})` : 'null';
    const sql = isHead
      ? `select count(*) as n, ${total} as total, null as body from (${rb.selectSql(node)}) as pgrst_t`
      : `select pgrst_r.n, ${total} as total, pgrst_r.body from (${bodySql(rb, node, accept)}) as pgrst_r`;
    if (accept.plan) return explain(cache.schema, auth, req, url, sql, rb.params.values, accept.plan);
    const row = await run(cache.schema, auth, req, url, sql, rb.params.values, txEnd(prefer));
    if (prefer.count === 'planned' || (prefer.count === 'estimated' && Number(row.total) > settings.maxRows)) {
      const planned = await plannedRows(cache.schema, auth, req, url, rb.rowsSql(node), rb.params.values);
      row.total = prefer.count === 'planned' ? planned : Math.max(planned, Number(row.total));
    }
    return rangeReply(row, node.offset ?? 0, accept, prefer);
  }

  function rangeReply(row: ResultRow, offset: number, accept: Accept, prefer: Preferences): Reply {
    const n = Number(row.n);
    const total = row.total === null ? null : Number(row.total);
    if (accept.shape === 'object' && n !== 1) throw singleError(n);
    const headers: Record<string, string> = { 'Content-Range': contentRange(offset, offset + n - 1, total) };
    if (accept.shape === 'object') headers['Content-Type'] = 'application/vnd.pgrst.object+json; charset=utf-8';
    if (accept.csv) headers['Content-Type'] = 'text/csv; charset=utf-8';
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

  async function mutate(
    req: IncomingMessage,
    cache: SchemaCache,
    table: Table,
    url: URL,
    auth: RequestAuth,
    kind: 'insert' | 'update' | 'delete',
    body: unknown,
  ): Promise<Reply> {
    const accept = parseAccept(req, effective(settings, 'db_plan_enabled'));
    const prefer = parsePrefer(req);
    const q = parseQuery(url.searchParams);
    const params = new Params();
    // Filters of the top level select the rows to change; the rest shapes the representation.
    const rootConditions = q.conditions.get('') ?? [];
    // The platform preloads safeupdate for API requests: an UPDATE or DELETE without a filter is refused.
    if (kind !== 'insert' && rootConditions.length === 0) {
      throw pgrstError(400, '21000', `${kind.toUpperCase()} requires a WHERE clause`);
    }
    q.conditions.delete('');
    q.limit.delete('');
    q.offset.delete('');
    let statement: string | null;
    if (kind === 'insert') {
      statement = insertSql(
        {
          table,
          rows: bodyRows(body, true),
          columns: q.columns,
          onConflict: q.onConflict,
          resolution: prefer.resolution,
          missingDefault: prefer.missing === 'default',
        },
        params,
      );
    } else {
      const wb = new ReadBuilder(cache, { ...emptyQuery(), conditions: new Map([['', rootConditions]]) }, params);
      const whereNode = await wb.plan(tableSource(table), [], MUTATION_ALIAS);
      const where = wb.whereList(whereNode);
      statement = kind === 'update' ? updateSql(table, bodyRows(body, false)[0], q.columns, where, params) : deleteSql(table, where);
    }
    const representation = prefer.return === 'representation';
    const rb = new ReadBuilder(cache, q, params, effective(settings, 'db_aggregates_enabled'));
    const node = await rb.plan(tableSource(table, 'pgrst_source'), representation ? selectItems(q) : []);
    let row: ResultRow = { n: 0, total: null, inserted: 0, body: accept.shape === 'object' ? 'null' : '[]' };
    if (statement) {
      const body = representation ? `(select pgrst_b.body from (${bodySql(rb, node, accept, false)}) as pgrst_b)` : 'null';
      const sql =
        `with pgrst_ret as (${statement}), pgrst_source as (select (r).* from pgrst_ret) ` +
        `select (select count(*) from pgrst_ret) as n, (select count(*) from pgrst_ret where ins) as inserted, null as total, ${body} as body`;
      if (accept.plan) return explain(cache.schema, auth, req, url, sql, params.values, accept.plan);
      row = await run(cache.schema, auth, req, url, sql, params.values, (r) => {
        const affected = Number(r.rows[0].n);
        // A single object was asked for: anything but one row undoes the change (as PostgREST does).
        if (accept.shape === 'object' && affected !== 1) throw singleError(affected);
        if (kind !== 'insert') checkMaxAffected(prefer, affected);
        return txVerdict(prefer);
      });
    } else if (accept.shape === 'object') {
      throw singleError(0);
    }
    const n = Number(row.n);
    const headers: Record<string, string> = {};
    const count = prefer.count ? n : null;
    headers['Content-Range'] = kind === 'update' ? contentRange(0, n - 1, count) : contentRange(1, 0, count);
    Object.assign(headers, preferenceApplied(prefer, kind === 'insert' ? ['resolution', 'missing', 'return', 'count'] : ['return', 'count']));
    let status: number;
    if (kind === 'insert') status = prefer.resolution === 'merge-duplicates' && Number(row.inserted) === 0 && n > 0 ? 200 : 201;
    else status = representation ? 200 : 204;
    if (!representation) return { status, headers };
    if (accept.shape === 'object') headers['Content-Type'] = 'application/vnd.pgrst.object+json; charset=utf-8';
    if (accept.csv) headers['Content-Type'] = 'text/csv; charset=utf-8';
    return { status, body: row.body ?? '[]', headers };
  }

  async function rpc(req: IncomingMessage, cache: SchemaCache, name: string, url: URL, auth: RequestAuth, body: unknown): Promise<Reply> {
    const method = req.method ?? 'GET';
    if (!['GET', 'HEAD', 'POST'].includes(method)) throw pgrstError(405, 'PGRST117', `Unsupported HTTP method: ${method}`);
    const accept = parseAccept(req, effective(settings, 'db_plan_enabled'));
    const prefer = parsePrefer(req);
    const isPost = method === 'POST';
    let args: Record<string, unknown> = {};
    let skip = new Set<string>();
    if (isPost) {
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw pgrstError(400, 'PGRST102', 'Empty or invalid json');
      args = body as Record<string, unknown>;
    } else {
      // GET: query parameters named like an argument are arguments, the others filter the result.
      const names = (await argumentNames(cache, name)) ?? new Set<string>();
      for (const [k, v] of url.searchParams) if (names.has(k)) args[k] = v;
      skip = new Set(Object.keys(args));
    }
    const call = await resolveCall(cache, name, args, isPost);
    const q = parseQuery(url.searchParams, skip);
    applyRange(req, q);
    const params = new Params();
    const kind = resultKind(call.fn);
    // CSV is built from rows; a function returning a scalar or nothing has none to give.
    if (accept.csv && kind !== 'rows') throw pgrstError(406, 'PGRST107', `None of these media types are available: ${req.headers.accept}`);
    const source = `with pgrst_source as materialized (${callSql(call, params)}) `;
    let sql: string;
    let offset: number;
    if (kind === 'rows') {
      const rb = new ReadBuilder(cache, q, params, effective(settings, 'db_aggregates_enabled'));
      const node = await rb.plan(
        { sql: 'pgrst_source', label: call.fn.name, columns: columnTypes(call.fn.returnColumns ?? []), table: call.fn.returnTable },
        selectItems(q),
      );
      offset = node.offset ?? 0;
      const shape: Accept = call.fn.returnsSet ? accept : { ...accept, shape: 'object' };
      const total = prefer.count ? `(${rb.countSql(node)})` : 'null';
      sql = `${source}select pgrst_r.n, ${total} as total, pgrst_r.body from (${bodySql(rb, node, shape)}) as pgrst_r`;
    } else {
      if (q.conditions.size || q.order.size) throw pgrstError(400, 'PGRST100', `failed to parse filter on a function that returns ${call.fn.returnType.sql}`, 'only functions returning rows can be filtered or ordered');
      const limit = q.limit.get('');
      offset = q.offset.get('') ?? 0;
      const rows = `(select pgrst_scalar from pgrst_source${limit !== undefined ? ` limit ${limit}` : ''}${offset ? ` offset ${offset}` : ''}) as pgrst_t`;
      const json =
        call.fn.returnsSet && accept.shape === 'array' ? `coalesce(json_agg(pgrst_scalar), '[]')::text` : `coalesce((json_agg(pgrst_scalar)->0)::text, 'null')`;
      sql = `${source}select count(*) as n, ${prefer.count ? '(select count(*) from pgrst_source)' : 'null'} as total, ${json} as body from ${rows}`;
    }
    if (accept.plan) return explain(cache.schema, auth, req, url, sql, params.values, accept.plan);
    const row = await run(cache.schema, auth, req, url, sql, params.values, (r) => {
      checkMaxAffected(prefer, Number(r.rows[0].n));
      return txVerdict(prefer);
    });
    if (kind === 'void') return { status: 204, headers: { 'Content-Range': contentRange(offset, offset + Number(row.n) - 1, null) } };
    if (kind === 'rows' && !call.fn.returnsSet) {
      // A function returning one row answers with an object.
      const reply = rangeReply(row, offset, { ...accept, shape: accept.shape === 'object' || Number(row.n) === 1 ? 'object' : 'array' }, prefer);
      return reply;
    }
    if (kind === 'scalar') {
      if (accept.shape === 'object' && call.fn.returnsSet && Number(row.n) !== 1) throw singleError(Number(row.n));
      return { ...rangeReply({ ...row, n: call.fn.returnsSet ? row.n : 1 }, offset, { ...accept, shape: 'array' }, prefer) };
    }
    return rangeReply(row, offset, accept, prefer);
  }

  /** The request's search_path: its schema, then `[api] extra_search_path` (PostgREST does not dedupe). */
  function searchPath(schema: string): string {
    const extra = settings.db.db_extra_search_path?.split(',').map((x) => x.trim()).filter(Boolean) ?? settings.extraSearchPath;
    return [schema, ...extra].map(quoteIdent).join(', ');
  }

  /** `Accept: application/vnd.pgrst.plan`: EXPLAIN of the statement the request would run, rolled back. */
  async function explain(schema: string, auth: RequestAuth, req: IncomingMessage, url: URL, sql: string, params: (string | null)[], plan: Plan): Promise<Reply> {
    const options = [`format ${plan.format}`, ...plan.options].join(', ');
    const r = await runAsCaller<Record<string, unknown>>(ctx, auth, req, url.pathname, { text: `explain (${options}) ${sql}`, params }, () => 'rollback', {
      search_path: searchPath(schema),
    });
    const lines = r.rows.map((row) => row['QUERY PLAN']);
    const body = plan.format === 'json' ? (typeof lines[0] === 'string' ? lines[0] : JSON.stringify(lines[0])) : lines.join('\n');
    return { status: 200, body, headers: { 'Content-Type': `application/vnd.pgrst.plan+${plan.format}; for="${plan.forType}"; charset=utf-8` } };
  }

  /** The planner's estimate of the rows of `sql` ("Plan Rows" of its EXPLAIN), for count=planned. */
  async function plannedRows(schema: string, auth: RequestAuth, req: IncomingMessage, url: URL, sql: string, params: (string | null)[]): Promise<number> {
    const r = await runAsCaller<Record<string, unknown>>(ctx, auth, req, url.pathname, { text: `explain (format json) ${sql}`, params }, () => 'rollback', {
      search_path: searchPath(schema),
    });
    const value = r.rows[0]?.['QUERY PLAN'];
    const parsed = (typeof value === 'string' ? JSON.parse(value) : value) as { Plan?: { 'Plan Rows'?: number } }[];
    return Number(parsed[0]?.Plan?.['Plan Rows'] ?? 0);
  }

  /**
   * Runs one statement as the caller, in one transaction; `decide` sees its result before the commit.
   * The search_path is the request's schema, then `[api] extra_search_path`, as PostgREST sets it.
   */
  async function run(
    schema: string,
    auth: RequestAuth,
    req: IncomingMessage,
    url: URL,
    text: string,
    params: (string | null)[],
    decide?: (result: SqlResult<ResultRow>) => Verdict,
  ): Promise<ResultRow> {
    const r = await runAsCaller<ResultRow>(ctx, auth, req, url.pathname, { text, params }, decide, { search_path: searchPath(schema) });
    return r.rows[0];
  }

  return Object.assign(handler, { cache });
}

/** How Prefer: tx ends the request's transaction. */
function txVerdict(prefer: Preferences): Verdict {
  return prefer.tx === 'rollback' ? 'rollback' : 'commit';
}

/** Prefer: tx=rollback ends even a read in a rollback; otherwise the statement commits in one go. */
function txEnd(prefer: Preferences): ((result: SqlResult<ResultRow>) => Verdict) | undefined {
  return prefer.tx === 'rollback' ? () => txVerdict(prefer) : undefined;
}

/** Errors that may only mean the schema cache is stale. */
const CACHE_MISS_CODES = new Set(['PGRST200', 'PGRST202', 'PGRST204', 'PGRST205', '42703', '42P01', '42883']);

function emptyQuery(): ParsedQuery {
  return { select: null, columns: null, onConflict: null, conditions: new Map(), order: new Map(), limit: new Map(), offset: new Map() };
}

function selectItems(q: ParsedQuery): SelectItem[] {
  return parseSelect(q.select ?? '*');
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

function contentRange(lower: number, upper: number, total: number | null): string {
  const range = total !== 0 && lower <= upper ? `${lower}-${upper}` : '*';
  return `${range}/${total === null ? '*' : total}`;
}

function singleError(n: number): HttpError {
  return pgrstError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', `The result contains ${n} rows`);
}

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const raw = (await readBody(req)).toString('utf8');
  if (!raw.trim()) return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw pgrstError(400, 'PGRST102', 'Empty or invalid json');
  }
}

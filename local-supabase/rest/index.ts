// /rest/v1: the PostgREST subset supabase-js (postgrest-js v2) uses, in PostgREST's steps: the
// request is parsed (api-request.ts), resolved against the schema cache into a plan (plan*.ts),
// rendered as ONE statement (render*.ts, pure), run in ONE transaction as the caller's role
// (execute.ts), and its one result row shaped into the response (response.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, HttpError, JwtError, sendJson, type Handler, type RequestAuth, type ServerContext } from '../http.ts';
import { parseCallQuery, parseCallRequest, parseMutationRequest, parseReadRequest, parseTarget, readJsonBody, unsupportedMethod, type MutationKind } from './api-request.ts';
import { closest, fromDbError, tableNotFound } from './errors.ts';
import { methodAccessMode, runStatement, type AccessMode, type Caller } from './execute.ts';
import { planRead, tableSource } from './plan.ts';
import { planCall, resolveCallRequest } from './plan-call.ts';
import { planMutation } from './plan-mutation.ts';
import { callStatement, estimateStatement, explainStatement, mutationStatement, readStatements, type Statement } from './render.ts';
import { requestSchema, type Plan } from './request.ts';
import { callReply, callVerdict, emptyMutationRow, explainReply, mutationReply, mutationVerdict, plannedRows, readReply, readVerdict, type Reply, type ResultRow } from './response.ts';
import { SchemaCache, type Table } from './schema-cache.ts';
import { parseSelect } from './select-parser.ts';
import { effective, readDbSettings, restSettings } from './settings.ts';

const MUTATIONS: Record<string, MutationKind> = { POST: 'insert', PATCH: 'update', DELETE: 'delete' };

/** Errors that may only mean the schema cache is stale. */
const CACHE_MISS_CODES = new Set(['PGRST200', 'PGRST202', 'PGRST204', 'PGRST205', '42703', '42P01', '42883']);

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
  const planEnabled = () => effective(settings, 'db_plan_enabled');
  const aggregatesEnabled = () => effective(settings, 'db_aggregates_enabled');

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
      const schema = requestSchema(req, settings.schemas);
      const schemaCache = cacheFor(schema);
      const generation = schemaCache.generation;
      await loadDbSettings();
      const body = method === 'POST' || method === 'PATCH' ? await readJsonBody(req) : undefined;
      const caller: Caller = { auth, req, path: url.pathname, schema };
      try {
        reply = await route(caller, schemaCache, path, url, body);
      } catch (e) {
        // A name the cache does not know (or knows wrongly): reload it once and try again. The
        // failed attempt changed nothing: planning errors come before SQL, SQL errors roll back.
        const code = e instanceof HttpError ? e.body.code : (e as { code?: unknown }).code;
        if (typeof code !== 'string' || !CACHE_MISS_CODES.has(code) || schemaCache.generation !== generation) throw e;
        dbSettings = null;
        await Promise.all([schemaCache.reload(), loadDbSettings()]);
        reply = await route(caller, schemaCache, path, url, body);
      }
    } catch (e) {
      const mapped = fromDbError(e, auth.role);
      if (mapped instanceof HttpError) return sendJson(res, mapped.status, mapped.body, mapped.headers);
      throw mapped;
    }
    // With more than one schema exposed, PostgREST names the schema that answered.
    if (settings.schemas.length > 1) reply.headers['Content-Profile'] ??= requestSchema(req, settings.schemas);
    sendJson(res, reply.status, req.method === 'HEAD' ? undefined : reply.body, reply.headers);
  };

  async function route(caller: Caller, cache: SchemaCache, path: string, url: URL, body: unknown): Promise<Reply> {
    const method = caller.req.method ?? 'GET';
    const target = parseTarget(method, path);
    if (target.kind === 'root') {
      // The OpenAPI root: list what is exposed (enough for tools that probe it).
      await cache.ensureLoaded();
      const names = cache.tableNames();
      return { status: 200, body: JSON.stringify({ swagger: '2.0', info: { title: 'local-supabase', version: '12' }, paths: Object.fromEntries(names.map((t) => [`/${t}`, {}])) }), headers: {} };
    }
    if (target.kind === 'rpc') return call(caller, cache, target.name, url, body);
    const table = await cache.lookup(() => cache.table(target.name));
    if (!table) throw tableNotFound(target.name, closest(target.name, cache.tableNames(), 0.75), cache.schema);
    if (method === 'GET' || method === 'HEAD') return read(caller, cache, table, url);
    if (MUTATIONS[method]) return mutate(caller, cache, table, url, MUTATIONS[method], body);
    throw unsupportedMethod(method);
  }

  async function read(caller: Caller, cache: SchemaCache, table: Table, url: URL): Promise<Reply> {
    const { accept, prefer, query } = parseReadRequest(caller.req, url, planEnabled());
    const plan = await planRead(cache, query, tableSource(table), parseSelect(query.select ?? '*'), { aggregatesEnabled: aggregatesEnabled() });
    const statements = readStatements(plan, accept, prefer, caller.req.method === 'HEAD');
    const mode = methodAccessMode(caller);
    if (accept.plan) return explain(caller, statements.read, accept.plan, mode);
    const [row] = await runStatement<ResultRow>(ctx, settings, caller, statements.read, readVerdict(prefer), mode);
    // count=planned is the planner's estimate (PostgREST: EXPLAIN of the count query), asked after.
    if (prefer.count === 'planned' || (prefer.count === 'estimated' && Number(row.total) > settings.maxRows)) {
      const estimate = plannedRows(await runStatement(ctx, settings, caller, estimateStatement(statements.plannedRows), () => 'rollback', mode));
      row.total = prefer.count === 'planned' ? estimate : Math.max(estimate, Number(row.total));
    }
    return readReply(row, plan.root.offset ?? 0, accept, prefer);
  }

  async function mutate(caller: Caller, cache: SchemaCache, table: Table, url: URL, kind: MutationKind, body: unknown): Promise<Reply> {
    const request = parseMutationRequest(caller.req, url, kind, body, planEnabled());
    const { accept, prefer } = request;
    const plan = await planMutation(cache, table, request, aggregatesEnabled());
    const statement = mutationStatement(plan, accept);
    if (statement && accept.plan) return explain(caller, statement, accept.plan, 'read-write');
    const row = statement ? (await runStatement<ResultRow>(ctx, settings, caller, statement, mutationVerdict(kind, accept, prefer), 'read-write'))[0] : emptyMutationRow(accept);
    return mutationReply(kind, row, accept, prefer, plan.returnsRepresentation);
  }

  async function call(caller: Caller, cache: SchemaCache, name: string, url: URL, body: unknown): Promise<Reply> {
    const request = parseCallRequest(caller.req, url, body, planEnabled());
    const { accept, prefer } = request;
    const resolved = await resolveCallRequest(cache, name, request);
    const query = parseCallQuery(caller.req, request.searchParams, resolved.argumentNames);
    const plan = await planCall(cache, resolved, query, request, aggregatesEnabled());
    const statement = callStatement(plan, accept, prefer);
    // A stable or immutable function runs read-only even by POST (PostgREST: Access Mode on Functions).
    const mode: AccessMode = resolved.fn.volatility === 'v' ? methodAccessMode(caller) : 'read-only';
    if (accept.plan) return explain(caller, statement, accept.plan, mode);
    const [row] = await runStatement<ResultRow>(ctx, settings, caller, statement, callVerdict(prefer), mode);
    return callReply(plan, row, accept, prefer);
  }

  /** `Accept: application/vnd.pgrst.plan`: EXPLAIN of the statement the request would run, rolled back. */
  async function explain(caller: Caller, statement: Statement, plan: Plan, mode: AccessMode): Promise<Reply> {
    const rows = await runStatement<Record<string, unknown>>(ctx, settings, caller, explainStatement(statement, plan), () => 'rollback', mode);
    return explainReply(rows, plan);
  }

  return Object.assign(handler, { cache });
}

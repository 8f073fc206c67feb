// Running a rendered statement as the caller: ONE statement in ONE transaction as the caller's role
// (runAsCaller), so RLS and grants decide. The search_path is the request's schema, then
// `[api] extra_search_path`, as PostgREST sets it (it does not dedupe). The transaction's access mode is
// PostgREST's (docs: Transactions › Access Mode): READ ONLY for GET and HEAD, and for a call of a stable or
// immutable function; a write there fails with 25006 (HTTP 405).
import type { IncomingMessage } from 'node:http';
import type { SqlResult, Verdict } from '../db/engine.ts';
import { runAsCaller, type RequestAuth, type ServerContext } from '../http.ts';
import { quoteIdent } from './ident.ts';
import type { Statement } from './render-context.ts';
import type { RestSettings } from './settings.ts';

/** Who asks and where: the caller's role and claims, the request's headers and path, its schema. */
export interface Caller {
  auth: RequestAuth;
  req: IncomingMessage;
  path: string;
  schema: string;
}

export type AccessMode = 'read-only' | 'read-write';

/** PostgREST's access mode of a request: GET and HEAD read only; other methods read and write. */
export function methodAccessMode(caller: Caller): AccessMode {
  return caller.req.method === 'GET' || caller.req.method === 'HEAD' ? 'read-only' : 'read-write';
}

/** Runs `statement`; `decide` sees its result before the commit (a rollback undoes it). */
export async function runStatement<T>(
  ctx: ServerContext,
  settings: RestSettings,
  caller: Caller,
  statement: Statement,
  decide: ((result: SqlResult<T>) => Verdict) | undefined,
  mode: AccessMode,
): Promise<T[]> {
  const r = await runAsCaller<T>(ctx, caller.auth, caller.req, caller.path, { text: statement.sql, params: statement.params }, decide, {
    search_path: searchPath(settings, caller.schema),
    // SET TRANSACTION READ ONLY, as a setting of the request's transaction (a transaction may always turn read-only).
    ...(mode === 'read-only' ? { transaction_read_only: 'on' } : {}),
  });
  return r.rows;
}

function searchPath(settings: RestSettings, schema: string): string {
  const extra = settings.db.db_extra_search_path?.split(',').map((x) => x.trim()).filter(Boolean) ?? settings.extraSearchPath;
  return [schema, ...extra].map(quoteIdent).join(', ');
}

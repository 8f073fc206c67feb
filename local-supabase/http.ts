// Small HTTP helpers shared by the REST, auth, storage and functions endpoints.
import { gzipSync } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Engine, Sql, SqlResult, TextStatement, Verdict } from './db/engine.ts';
import type { LocalSupabaseConfig } from './config.ts';
import type { Mailbox } from './mail/mailbox.ts';
import { verifyJwtCached, JwtError, type JwtClaims, type DbRole } from './jwt.ts';
import { FairLanes, LaneQueueFull } from './fair-lanes.ts';
import { POSTGRES_POOL_SIZE } from './db/postgres.ts';

export interface ServerContext {
  config: LocalSupabaseConfig;
  engine: Engine;
  /** Folder where storage objects' bytes live. */
  storageDir: string;
  /** Where auth "sends" its e-mails (the local inbox at /inbox). */
  mailbox: Mailbox;
  log: (message: string) => void;
}

/** A handler for one API prefix; `path` is the URL path after the prefix (e.g. "/courses"). */
export type Handler = (req: IncomingMessage, res: ServerResponse, path: string, url: URL) => Promise<void>;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(String(body.message ?? body.msg ?? body.error ?? status));
  }
}

export const CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS',
  'Access-Control-Allow-Headers':
    'authorization, x-client-info, apikey, content-type, content-profile, accept-profile, prefer, range, x-upsert, cache-control, x-supabase-api-version, tus-resumable, upload-length, upload-metadata, upload-offset, upload-defer-length, upload-concat, x-http-method-override, x-requested-with, x-region',
  'Access-Control-Expose-Headers':
    'content-range, content-length, content-type, location, range, x-total-count, upload-offset, upload-length, tus-resumable, tus-version, tus-max-size, tus-extension, upload-metadata, x-supabase-api-version, etag, accept-ranges',
  'Access-Control-Max-Age': '86400',
};

/** Bodies smaller than this go uncompressed: gzip would save little and cost a little. */
const GZIP_MIN_BYTES = 1024;

/**
 * A JSON answer, gzip-compressed when the client accepts it (as Supabase's API gateway does), so a
 * page's data costs the phone its compressed size on the wire.
 */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const acceptsGzip = /\bgzip\b/i.test(String(res.req?.headers['accept-encoding'] ?? ''));
  const raw = Buffer.from(text);
  const gzip = acceptsGzip && raw.length >= GZIP_MIN_BYTES;
  const payload = gzip ? gzipSync(raw) : raw;
  res.writeHead(status, {
    ...CORS_HEADERS,
    ...(text ? { 'Content-Type': 'application/json; charset=utf-8' } : {}),
    ...(gzip ? { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' } : {}),
    ...headers,
    'Content-Length': String(payload.length),
  });
  res.end(payload);
}

/** Reads a request body into memory, refusing more than `limit` bytes (JSON APIs only). */
export async function readBody(req: IncomingMessage, limit = 10 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new HttpError(413, { code: '413', message: 'Payload too large' });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export async function readJson<T = unknown>(req: IncomingMessage): Promise<T> {
  const raw = (await readBody(req)).toString('utf8');
  if (!raw.trim()) return {} as T;
  try {
    return JSON.parse(raw) as T;
  } catch {
    throw new HttpError(400, { code: 'PGRST102', message: 'Empty or invalid json', details: null, hint: null });
  }
}

export interface RequestAuth {
  role: DbRole;
  claims: JwtClaims;
  /** The raw bearer token, if any (functions forward it). */
  token: string | null;
}

/**
 * Who is calling: the verified JWT of `Authorization: Bearer`, else of the `apikey` header, else anon.
 * Throws JwtError for a token that is present but invalid or expired.
 */
export async function authenticate(req: IncomingMessage, config: LocalSupabaseConfig): Promise<RequestAuth> {
  const header = req.headers.authorization;
  const bearer = header?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
  const apikey = typeof req.headers.apikey === 'string' ? req.headers.apikey : undefined;
  const token = bearer || apikey || null;
  if (!token) return { role: 'anon', claims: { role: 'anon' }, token: null };
  const claims = await verifyJwtCached(token, config);
  return { role: claims.role, claims, token };
}

export { JwtError };

/**
 * Runs fn in one transaction as the caller's database role with the request GUCs PostgREST sets,
 * so RLS policies, grants, auth.uid() and auth.jwt() behave as in production.
 */
export async function asCaller<T>(
  ctx: ServerContext,
  auth: RequestAuth,
  req: Pick<IncomingMessage, 'method' | 'headers'>,
  path: string,
  fn: (tx: Sql) => Promise<T>,
): Promise<T> {
  const settings = { ...(await roleSettings(ctx.engine, auth.role)), ...callerSettings(auth, req, path) };
  return inCallerLane(ctx.engine, auth, req, () => ctx.engine.transaction(fn, settings));
}

/** asCaller for one statement: the engine sends settings and statement together (Engine.runStatement). */
export async function runAsCaller<T>(
  ctx: ServerContext,
  auth: RequestAuth,
  req: Pick<IncomingMessage, 'method' | 'headers'>,
  path: string,
  statement: TextStatement,
  decide?: (result: SqlResult<T>) => Verdict,
  /** More transaction settings of the endpoint (the REST layer's search_path). */
  extra: Record<string, string> = {},
): Promise<SqlResult<T>> {
  const settings = { ...(await roleSettings(ctx.engine, auth.role)), ...callerSettings(auth, req, path), ...extra };
  return inCallerLane(ctx.engine, auth, req, () => ctx.engine.runStatement(settings, statement, decide));
}

/** Requests of one caller that may wait for the database; past it, 429 (local-supabase only). */
export const CALLER_QUEUE_BOUND = 50;

/**
 * A caller has more than CALLER_QUEUE_BOUND requests waiting for the database. local-supabase's own
 * answer (PostgREST has no per-caller queue: on the platform, such a caller holds pool connections until
 * PGRST003): 429, PostgREST-shaped, code LS429. Storage words it its own way (storage/index.ts).
 */
export class CallerQueueFull extends HttpError {
  constructor() {
    super(429, {
      code: 'LS429',
      details: `local-supabase runs at most ${CALLER_QUEUE_BOUND} waiting requests per caller`,
      hint: 'Wait for your earlier requests to finish.',
      message: 'Too many requests waiting for the database',
    });
  }
}

const lanesByEngine = new WeakMap<Engine, FairLanes>();
const SERVICE_LANE = 'service_role';

/**
 * The database's turns, shared fairly (fair-lanes.ts): a caller holds at most a quarter of the
 * connections at once (PGlite has one, so one statement: what it could run anyway), and its further
 * requests wait in its own queue while the other callers take their turns. The service role (edge
 * functions, jobs) has a lane of its own with half the connections and no queue bound, so the
 * product's functions are never starved by one student.
 */
export function databaseLanes(engine: Engine): FairLanes {
  let lanes = lanesByEngine.get(engine);
  if (!lanes) {
    const connections = engine.kind === 'pglite' ? 1 : POSTGRES_POOL_SIZE;
    lanes = new FairLanes({
      slots: connections,
      perLane: (lane) => Math.max(1, Math.floor(connections / (lane === SERVICE_LANE ? 2 : 4))),
      maxQueued: (lane) => (lane === SERVICE_LANE ? Infinity : CALLER_QUEUE_BOUND),
    });
    lanesByEngine.set(engine, lanes);
  }
  return lanes;
}

/**
 * The caller whose lane a request waits in: the service role, else the JWT's subject, else the client
 * address (the first X-Forwarded-For, which the server sets from the peer as the platform's gateway does).
 */
export function callerLane(auth: RequestAuth, req: Pick<IncomingMessage, 'headers'>): string {
  if (auth.role === 'service_role') return SERVICE_LANE;
  if (auth.claims.sub) return `user:${auth.claims.sub}`;
  const forwarded = req.headers['x-forwarded-for'];
  return `address:${String(Array.isArray(forwarded) ? forwarded[0] : (forwarded ?? '')).split(',')[0]!.trim()}`;
}

async function inCallerLane<T>(engine: Engine, auth: RequestAuth, req: Pick<IncomingMessage, 'headers'>, fn: () => Promise<T>): Promise<T> {
  try {
    return await databaseLanes(engine).run(callerLane(auth, req), fn);
  } catch (e) {
    throw e instanceof LaneQueueFull ? new CallerQueueFull() : e;
  }
}

interface RoleSettings {
  /** authenticator's: the defaults of the session PostgREST logs in with. */
  login: Record<string, string>;
  roles: Map<string, Record<string, string>>;
}
const roleSettingsCache = new WeakMap<Engine, Promise<RoleSettings>>();

/**
 * The settings a request runs with, as on the platform: authenticator's (the role PostgREST logs in
 * as, so its session's defaults, this database's own over the cluster's), then the request role's,
 * which PostgREST applies to each request (`alter role anon set statement_timeout = '3s'`): SET ROLE
 * alone would not. service_role has none of its own and keeps authenticator's 8 s. Read once per engine.
 */
async function roleSettings(engine: Engine, role: DbRole): Promise<Record<string, string>> {
  let all = roleSettingsCache.get(engine);
  if (!all) {
    all = engine
      .query<{ rolname: string; setconfig: string[] }>(
        `select r.rolname, s.setconfig from pg_db_role_setting s join pg_roles r on r.oid = s.setrole
          where (s.setdatabase = 0 and r.rolname in ('authenticator', 'anon', 'authenticated', 'service_role'))
             or (s.setdatabase = (select oid from pg_database where datname = current_database()) and r.rolname = 'authenticator')
          order by s.setdatabase`,
      )
      .then(({ rows }) => {
        const parse = (setconfig: string[]) => Object.fromEntries(setconfig.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
        const settings: RoleSettings = { login: {}, roles: new Map() };
        for (const r of rows) {
          if (r.rolname === 'authenticator') Object.assign(settings.login, parse(r.setconfig));
          else settings.roles.set(r.rolname, parse(r.setconfig));
        }
        return settings;
      });
    roleSettingsCache.set(engine, all);
  }
  const { login, roles } = await all;
  return { ...login, ...roles.get(role) };
}

/** The role and the request GUCs PostgREST sets for a request (role first: it applies at once). */
function callerSettings(auth: RequestAuth, req: Pick<IncomingMessage, 'method' | 'headers'>, path: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (typeof v === 'string' && k !== 'authorization' && k !== 'apikey') headers[k] = v;
  }
  return {
    role: auth.role,
    'request.jwt.claims': JSON.stringify(auth.claims),
    'request.jwt.claim.sub': auth.claims.sub ?? '',
    'request.jwt.claim.role': auth.role,
    'request.headers': JSON.stringify(headers),
    'request.method': req.method ?? 'GET',
    'request.path': path,
  };
}

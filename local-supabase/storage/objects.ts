// Object operations. Every metadata statement on storage.objects runs as the caller's role inside
// asCaller, so RLS decides exactly as in Supabase Storage; disk is touched only once that succeeded.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { jwtVerify, errors as joseErrors } from 'jose';
import { asCaller, CORS_HEADERS, type RequestAuth, type ServerContext } from '../http.ts';
import type { Sql } from '../db/engine.ts';
import { signJwt } from '../jwt.ts';
import { errors, mapDbError } from './errors.ts';
import { checkObjectName, versionPath } from './keys.ts';
import { checkContent, checkMimeType, essenceOf, receiveUpload, type ReceivedFile, type UploadLimits } from './body.ts';

export interface Store {
  ctx: ServerContext;
  /** Upload temp files; on the same file system as the objects so rename is atomic. */
  tmpDir: string;
}

type ReqLike = Pick<IncomingMessage, 'method' | 'headers'>;

export interface BucketRow {
  id: string;
  public: boolean;
  file_size_limit: number | string | null;
  allowed_mime_types: string[] | null;
}

interface ObjectRow {
  id: string;
  name: string;
  version: string | null;
  metadata: Record<string, unknown> | null;
  user_metadata: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}

/** Timestamps as Storage prints them (ISO 8601, UTC), the same on PGlite and node-postgres. */
export const iso = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const OBJECT_COLUMNS = `id, bucket_id, name, owner, owner_id, version, metadata, user_metadata,
  ${iso('created_at')} as created_at, ${iso('updated_at')} as updated_at, ${iso('last_accessed_at')} as last_accessed_at`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Bucket settings are read as the superuser, as Storage does: limits apply whatever the caller may see. */
export async function findBucket(ctx: ServerContext, id: string): Promise<BucketRow | null> {
  const { rows } = await ctx.engine.query<BucketRow>(
    'select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1',
    [id],
  );
  return rows[0] ?? null;
}

export function limitsOf(bucket: BucketRow): UploadLimits {
  const max = bucket.file_size_limit === null ? null : Number(bucket.file_size_limit);
  return { maxSize: max !== null && max > 0 ? max : null, allowedMimeTypes: bucket.allowed_mime_types };
}

class Rollback extends Error {}

/** Runs a statement as the caller and rolls it back: "would RLS allow this?" (Storage's testPermission). */
export async function testPermission(s: Store, auth: RequestAuth, req: ReqLike, fn: (tx: Sql) => Promise<unknown>): Promise<void> {
  try {
    await asCaller(s.ctx, auth, req, '/storage/v1', async (tx) => {
      await fn(tx);
      throw new Rollback();
    });
  } catch (e) {
    if (e instanceof Rollback) return;
    mapDbError(e);
  }
}

interface RowInput {
  id: string;
  bucketId: string;
  name: string;
  owner: string | undefined;
  metadata: Record<string, unknown> | null;
  version: string | null;
  userMetadata: Record<string, unknown> | null;
}

/**
 * Storage's statements: a plain insert (an insert policy is enough), or for upserts an
 * insert … on conflict do update … returning, which also needs update and select policies.
 */
export async function writeObjectRow(tx: Sql, r: RowInput, upsert: boolean): Promise<string> {
  const params = [
    r.id,
    r.bucketId,
    r.name,
    r.owner && UUID.test(r.owner) ? r.owner : null,
    r.owner ?? null,
    r.metadata ? JSON.stringify(r.metadata) : null,
    r.version,
    r.userMetadata ? JSON.stringify(r.userMetadata) : null,
  ];
  const insert = `insert into storage.objects (id, bucket_id, name, owner, owner_id, metadata, version, user_metadata)
    values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8::jsonb)`;
  if (!upsert) {
    await tx.query(insert, params);
    return r.id;
  }
  const { rows } = await tx.query<{ id: string }>(
    `${insert} on conflict (bucket_id, name) do update set
       owner = excluded.owner, owner_id = excluded.owner_id, metadata = excluded.metadata,
       version = excluded.version, user_metadata = excluded.user_metadata,
       updated_at = now(), last_accessed_at = now()
     returning id`,
    params,
  );
  return rows[0].id;
}

/** Upload from an HTTP body: check RLS, stream to a temp file within the bucket's limits, then commit. */
export async function uploadObject(
  s: Store,
  req: IncomingMessage,
  auth: RequestAuth,
  bucketId: string,
  name: string,
  upsert: boolean,
): Promise<{ Id: string; Key: string }> {
  let bucket: BucketRow | null;
  try {
    checkObjectName(name);
    bucket = await findBucket(s.ctx, bucketId);
    if (!bucket) throw errors.bucketNotFound();
    // Refuse before accepting any byte when the caller may not write here.
    const probe = { id: randomUUID(), bucketId, name, owner: auth.claims.sub, metadata: null, version: null, userMetadata: null };
    await testPermission(s, auth, req, (tx) => writeObjectRow(tx, probe, upsert));
  } catch (e) {
    req.resume();
    throw e;
  }
  const file = await receiveUpload(req, s.tmpDir, limitsOf(bucket));
  return commitObject(s, auth, req, bucketId, name, upsert, file);
}

/**
 * Records an object whose bytes are in file.tempPath: inserts (or upserts) the row as the caller
 * and moves the file to its version path in the same transaction; on any failure nothing remains.
 */
export async function commitObject(
  s: Store,
  auth: RequestAuth,
  req: ReqLike,
  bucketId: string,
  name: string,
  upsert: boolean,
  file: ReceivedFile,
): Promise<{ Id: string; Key: string }> {
  const version = randomUUID();
  const finalPath = versionPath(s.ctx.storageDir, version);
  const metadata = {
    eTag: file.eTag,
    size: file.size,
    mimetype: file.mimetype,
    cacheControl: file.cacheControl,
    lastModified: new Date().toISOString(),
    contentLength: file.size,
    httpStatusCode: 200,
  };
  try {
    // Every write passes here (upload, signed upload, resumable, copy): the bytes must be their type.
    await checkContent(file.tempPath, file.mimetype, file.size);
  } catch (e) {
    await unlink(file.tempPath).catch(() => {});
    throw e;
  }
  // The version being replaced, read as superuser so its bytes can be freed after the commit.
  const previous = upsert ? await currentVersion(s.ctx, bucketId, name) : null;
  let id: string;
  try {
    id = await asCaller(s.ctx, auth, req, '/storage/v1', async (tx) => {
      const row = { id: randomUUID(), bucketId, name, owner: auth.claims.sub, metadata, version, userMetadata: file.userMetadata };
      const written = await writeObjectRow(tx, row, upsert);
      await rename(file.tempPath, finalPath);
      return written;
    });
  } catch (e) {
    await unlink(file.tempPath).catch(() => {});
    await unlink(finalPath).catch(() => {});
    mapDbError(e);
  }
  if (previous) await removeVersions(s, [previous]);
  return { Id: id, Key: `${bucketId}/${name}` };
}

async function currentVersion(ctx: ServerContext, bucketId: string, name: string): Promise<string | null> {
  const { rows } = await ctx.engine.query<{ version: string | null }>(
    'select version from storage.objects where bucket_id = $1 and name = $2',
    [bucketId, name],
  );
  return rows[0]?.version ?? null;
}

async function removeVersions(s: Store, versions: (string | null)[]): Promise<void> {
  for (const v of versions) {
    if (v) await unlink(versionPath(s.ctx.storageDir, v)).catch(() => {});
  }
}

/** The object as the caller may see it (RLS select), or null. */
export async function findVisibleObject(
  s: Store,
  auth: RequestAuth,
  req: ReqLike,
  bucketId: string,
  name: string,
): Promise<ObjectRow | null> {
  const { rows } = await asCaller(s.ctx, auth, req, '/storage/v1', (tx) =>
    tx.query<ObjectRow>(`select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`, [bucketId, name]),
  );
  return rows[0] ?? null;
}

/** The object regardless of RLS (public buckets, signed URLs), or null. */
export async function findObjectAsSuperuser(s: Store, bucketId: string, name: string): Promise<ObjectRow | null> {
  const { rows } = await s.ctx.engine.query<ObjectRow>(
    `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`,
    [bucketId, name],
  );
  return rows[0] ?? null;
}

/** `bytes=a-b`, `bytes=a-`, `bytes=-n`; null when absent or not a single range (then the whole body). */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const m = header?.match(/^bytes=(\d*)-(\d*)$/);
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

function contentDisposition(download: string, objectName: string): string {
  const filename = download || path.posix.basename(objectName);
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** Sent with every stored object: no script, no plugin, no subresource; a unique opaque origin. */
export const STORED_OBJECT_CSP = "default-src 'none'; sandbox";

/**
 * The Content-Type an object is served with: its stored type, but any type naming text/html as plain
 * text (as Storage's renderer does), and a stored type that is not one media type (older objects) as
 * application/octet-stream.
 */
export function servedContentType(stored: unknown): string {
  if (typeof stored !== 'string' || !stored) return 'application/octet-stream';
  if (stored.toLowerCase().includes('text/html')) return 'text/plain';
  return essenceOf(stored) ? stored : 'application/octet-stream';
}

/** Streams an object from disk with its stored headers, ETag/304 and single-range (206) support. */
export async function sendObject(s: Store, req: IncomingMessage, res: ServerResponse, obj: ObjectRow, url: URL): Promise<void> {
  if (!obj.version) throw errors.objectNotFound();
  const file = versionPath(s.ctx.storageDir, obj.version);
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch {
    throw errors.objectNotFound();
  }
  const meta = obj.metadata ?? {};
  const eTag = typeof meta.eTag === 'string' ? meta.eTag : `"${obj.version}"`;
  const headers: Record<string, string> = {
    ...CORS_HEADERS,
    'Content-Type': servedContentType(meta.mimetype),
    // No stored object is a page of the API's origin: the browser neither guesses another type nor
    // runs a script of it (an SVG, or HTML stored before types were checked), whatever its type says.
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': STORED_OBJECT_CSP,
    'Cache-Control': typeof meta.cacheControl === 'string' ? meta.cacheControl : 'no-cache',
    ETag: eTag,
    'Last-Modified': new Date(typeof meta.lastModified === 'string' ? meta.lastModified : obj.updated_at).toUTCString(),
    'Accept-Ranges': 'bytes',
  };
  const download = url.searchParams.get('download');
  if (download !== null) headers['Content-Disposition'] = contentDisposition(download, obj.name);

  if (req.headers['if-none-match'] === eTag) {
    res.writeHead(304, headers);
    return void res.end();
  }
  const range = parseRange(req.headers.range, size);
  if (range === 'unsatisfiable') {
    res.writeHead(416, { ...headers, 'Content-Range': `bytes */${size}`, 'Content-Type': 'application/json' });
    return void res.end(JSON.stringify(errors.invalidRange().body));
  }
  const start = range?.start ?? 0;
  const end = range?.end ?? size - 1;
  if (range) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
  headers['Content-Length'] = String(Math.max(0, end - start + 1));
  res.writeHead(range ? 206 : 200, headers);
  if (req.method === 'HEAD' || size === 0) return void res.end();
  try {
    await pipeline(createReadStream(file, { start, end }), res);
  } catch {
    res.destroy(); // client went away, or the file vanished under a concurrent delete
  }
}

/** Storage's `info` shape. */
export function objectInfo(obj: ObjectRow & { bucket_id?: string }) {
  const meta = obj.metadata ?? {};
  return {
    id: obj.id,
    name: obj.name,
    version: obj.version,
    bucket_id: obj.bucket_id,
    size: meta.size ?? null,
    content_type: meta.mimetype ?? null,
    cache_control: meta.cacheControl ?? null,
    etag: meta.eTag ?? null,
    metadata: obj.user_metadata ?? null,
    last_modified: meta.lastModified ?? obj.updated_at,
    created_at: obj.created_at,
  };
}

/** DELETE /object/{bucket} {prefixes}: deletes what the caller's delete (and select) policies allow. */
export async function removeObjects(s: Store, auth: RequestAuth, req: ReqLike, bucketId: string, names: string[]) {
  const { rows } = await asCaller(s.ctx, auth, req, '/storage/v1', async (tx) => {
    await allowDeleteQuery(tx);
    return tx
      .query<ObjectRow>(
        `delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning ${OBJECT_COLUMNS}`,
        [bucketId, names],
      )
      .catch(mapDbError);
  });
  await removeVersions(s, rows.map((r) => r.version));
  return rows;
}

/** Empties a bucket of what the caller may delete. */
export async function emptyBucket(s: Store, auth: RequestAuth, req: ReqLike, bucketId: string): Promise<void> {
  const { rows } = await asCaller(s.ctx, auth, req, '/storage/v1', async (tx) => {
    await allowDeleteQuery(tx);
    return tx.query<{ version: string | null }>('delete from storage.objects where bucket_id = $1 returning version', [bucketId]).catch(mapDbError);
  });
  await removeVersions(s, rows.map((r) => r.version));
}

export interface ListOptions {
  prefix?: string;
  limit?: number;
  offset?: number;
  search?: string;
  sortBy?: { column?: string; order?: string };
}

const SORT_COLUMNS = new Set(['name', 'updated_at', 'created_at', 'last_accessed_at']);
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => '\\' + c);

/**
 * POST /object/list/{bucket}: the folders and files directly under `prefix` that the caller may
 * select, like Storage's storage.search(): folders first (id null), then files, sorted.
 */
export async function listObjects(s: Store, auth: RequestAuth, req: ReqLike, bucketId: string, o: ListOptions) {
  let prefix = typeof o.prefix === 'string' ? o.prefix : '';
  if (prefix && !prefix.endsWith('/')) prefix += '/';
  const levels = prefix ? prefix.split('/').length : 1;
  const limit = Math.min(Math.max(Number.isInteger(o.limit) ? Number(o.limit) : 100, 1), 1000);
  const offset = Math.max(Number.isInteger(o.offset) ? Number(o.offset) : 0, 0);
  const column = SORT_COLUMNS.has(o.sortBy?.column ?? '') ? o.sortBy!.column! : 'name';
  const order = o.sortBy?.order?.toLowerCase() === 'desc' ? 'desc' : 'asc';
  const search = typeof o.search === 'string' ? o.search : '';
  // column and order come from the fixed sets above; every value is a bound parameter.
  const orderBy = column === 'name' ? `name collate "C" ${order}` : `${column} ${order}, name collate "C" asc`;
  const sql = `
    with matching as (
      select * from storage.objects
      where bucket_id = $1 and name like $2 escape '\\' and name ilike $3 escape '\\'
    ), folders as (
      select path_tokens[$4] as name from matching
      where array_length(path_tokens, 1) > $4 group by 1
    ), listed as (
      select 0 as kind, name, null::uuid as id, null::timestamptz as updated_at, null::timestamptz as created_at,
             null::timestamptz as last_accessed_at, null::jsonb as metadata from folders
      union all
      select 1, path_tokens[$4], id, updated_at, created_at, last_accessed_at, metadata from matching
      where array_length(path_tokens, 1) = $4
    )
    select name, id, ${iso('updated_at')} as updated_at, ${iso('created_at')} as created_at,
           ${iso('last_accessed_at')} as last_accessed_at, metadata
    from listed order by kind, ${orderBy} limit $5 offset $6`;
  const { rows } = await asCaller(s.ctx, auth, req, '/storage/v1', (tx) =>
    tx.query(sql, [bucketId, escapeLike(prefix) + '%', escapeLike(prefix + search) + '%', levels, limit, offset]),
  );
  return rows;
}

/** Signed URL tokens: HS256 with the project secret and the object's `bucket/name` as `url`. */
export async function signObjectUrl(s: Store, bucketId: string, name: string, expiresIn: number): Promise<string> {
  const token = await signJwt({ url: `${bucketId}/${name}` }, s.ctx.config.jwtSecret, expiresIn);
  return `/object/sign/${bucketId}/${name}?token=${token}`;
}

export function checkExpiresIn(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw errors.invalidRequest('body/expiresIn must be an integer >= 1');
  }
  return value;
}

/** Verifies a signed URL's token for exactly this object; upload tokens carry `upsert`, download ones not. */
async function verifySignedToken(s: Store, token: string | null, bucketId: string, name: string, kind: 'download' | 'upload') {
  if (!token) throw errors.invalidRequest('Missing token');
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, new TextEncoder().encode(s.ctx.config.jwtSecret), { algorithms: ['HS256'] }));
  } catch (e) {
    throw errors.invalidJwt(e instanceof joseErrors.JWTExpired ? 'jwt expired' : 'invalid signature');
  }
  const isUpload = typeof payload.upsert === 'boolean';
  if (payload.url !== `${bucketId}/${name}` || isUpload !== (kind === 'upload')) throw errors.invalidSignature();
  return payload;
}

/** The download token's claims (a render token carries its transformations). */
export async function verifySignedUrl(s: Store, token: string | null, bucketId: string, name: string): Promise<Record<string, unknown>> {
  return verifySignedToken(s, token, bucketId, name, 'download');
}

/** POST /object/upload/sign/{bucket}/{name}: RLS is checked now, as the caller; the upload later uses the token. */
export async function createSignedUploadUrl(s: Store, auth: RequestAuth, req: ReqLike, bucketId: string, name: string, upsert: boolean) {
  checkObjectName(name);
  if (!(await findBucket(s.ctx, bucketId))) throw errors.bucketNotFound();
  const probe = { id: randomUUID(), bucketId, name, owner: auth.claims.sub, metadata: null, version: null, userMetadata: null };
  await testPermission(s, auth, req, (tx) => writeObjectRow(tx, probe, upsert));
  // Storage's signed upload URLs last two hours.
  const token = await signJwt({ url: `${bucketId}/${name}`, owner: auth.claims.sub, upsert }, s.ctx.config.jwtSecret, 2 * 3600);
  return { url: `/object/upload/sign/${bucketId}/${name}?token=${token}`, token };
}

/** PUT /object/upload/sign/{bucket}/{name}?token=…: the upload the token allows, owned by its signer. */
export async function uploadWithSignedUrl(s: Store, req: IncomingMessage, token: string | null, bucketId: string, name: string) {
  let payload: Record<string, unknown>;
  let bucket: BucketRow | null;
  try {
    checkObjectName(name);
    payload = await verifySignedToken(s, token, bucketId, name, 'upload');
    bucket = await findBucket(s.ctx, bucketId);
    if (!bucket) throw errors.bucketNotFound();
  } catch (e) {
    req.resume();
    throw e;
  }
  // As in Storage, the write itself runs with elevated rights: RLS was checked when signing.
  const owner = typeof payload.owner === 'string' ? { sub: payload.owner } : {};
  const auth: RequestAuth = { role: 'service_role', claims: { role: 'service_role', ...owner }, token: null };
  const file = await receiveUpload(req, s.tmpDir, limitsOf(bucket));
  return commitObject(s, auth, req, bucketId, name, payload.upsert === true, file);
}

type ObjectRef = { bucketId: string; name: string };

/**
 * What a copy or a move needs before it touches the destination, as an upload would: the source as
 * the caller may read it (SELECT policy), and the destination bucket's types, size limit and content
 * check applied to the source's type and bytes.
 */
async function sourceForTransfer(s: Store, auth: RequestAuth, req: ReqLike, from: ObjectRef, to: ObjectRef) {
  checkObjectName(from.name);
  checkObjectName(to.name);
  const source = await findVisibleObject(s, auth, req, from.bucketId, from.name);
  if (!source?.version) throw errors.objectNotFound();
  const bucket = await findBucket(s.ctx, to.bucketId);
  if (!bucket) throw errors.bucketNotFound();
  const meta = source.metadata ?? {};
  const mimetype = typeof meta.mimetype === 'string' ? meta.mimetype : 'application/octet-stream';
  const file = versionPath(s.ctx.storageDir, source.version);
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch {
    throw errors.objectNotFound();
  }
  const limits = limitsOf(bucket);
  checkMimeType(mimetype, limits.allowedMimeTypes);
  if (limits.maxSize !== null && size > limits.maxSize) throw errors.tooLarge();
  await checkContent(file, mimetype, size);
  return { source, meta, mimetype, file, size };
}

/**
 * POST /object/move. Storage's own check is an update of the row as the caller (select and update
 * policies on the old name, update policy on the new one); the move also needs what deleting the
 * source and uploading to the destination would (delete policy there, insert policy here), and the
 * destination bucket's limits. The bytes stay where they are: only the row moves.
 */
export async function moveObject(s: Store, auth: RequestAuth, req: ReqLike, from: ObjectRef, to: ObjectRef): Promise<void> {
  const { source } = await sourceForTransfer(s, auth, req, from, to);
  await testPermission(s, auth, req, async (tx) => {
    await allowDeleteQuery(tx);
    const { rowCount } = await tx.query('delete from storage.objects where bucket_id = $1 and name = $2', [from.bucketId, from.name]);
    if (rowCount === 0) throw errors.objectNotFound();
    const probe = { id: randomUUID(), bucketId: to.bucketId, name: to.name, owner: auth.claims.sub, metadata: source.metadata, version: source.version, userMetadata: source.user_metadata };
    await writeObjectRow(tx, probe, false);
  });
  const { rowCount } = await asCaller(s.ctx, auth, req, '/storage/v1', (tx) =>
    tx
      .query(
        `update storage.objects set bucket_id = $3, name = $4, owner = $5, owner_id = $6, updated_at = now(), last_accessed_at = now()
         where bucket_id = $1 and name = $2`,
        [from.bucketId, from.name, to.bucketId, to.name, auth.claims.sub && UUID.test(auth.claims.sub) ? auth.claims.sub : null, auth.claims.sub ?? null],
      )
      .catch(mapDbError),
  );
  if (rowCount === 0) throw errors.objectNotFound();
}

/**
 * POST /object/copy: the source as the caller reads it, then exactly an upload of its bytes to the
 * destination (the bucket's types, size limit and content check, and its insert, or upsert, policies
 * as the caller, which see the source's metadata as Storage passes it).
 */
export async function copyObject(
  s: Store,
  auth: RequestAuth,
  req: ReqLike,
  from: ObjectRef,
  to: ObjectRef,
  upsert: boolean,
): Promise<{ Id: string; Key: string }> {
  const { source, meta, mimetype, file, size } = await sourceForTransfer(s, auth, req, from, to);
  const probe = { id: randomUUID(), bucketId: to.bucketId, name: to.name, owner: auth.claims.sub, metadata: source.metadata, version: null, userMetadata: source.user_metadata };
  await testPermission(s, auth, req, (tx) => writeObjectRow(tx, probe, upsert));
  const tempPath = path.join(s.tmpDir, randomUUID());
  await copyFile(file, tempPath);
  return commitObject(s, auth, req, to.bucketId, to.name, upsert, {
    tempPath,
    size,
    eTag: typeof meta.eTag === 'string' ? meta.eTag : await md5OfFile(tempPath),
    mimetype,
    cacheControl: typeof meta.cacheControl === 'string' ? meta.cacheControl : 'no-cache',
    userMetadata: source.user_metadata,
  });
}

export async function md5OfFile(file: string): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return `"${hash.digest('hex')}"`;
}

/**
 * The platform refuses direct DELETEs on storage tables (bootstrap.sql's storage.protect_delete);
 * the Storage API allows them for its own transaction, as here, and removes the bytes after.
 */
export async function allowDeleteQuery(tx: Sql): Promise<void> {
  await tx.query(`select set_config('storage.allow_delete_query', 'true', true)`);
}

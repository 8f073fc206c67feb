// The storage.objects rows: every metadata statement runs as the caller's role inside asCaller, so RLS
// decides exactly as in Supabase Storage; disk is touched only once that succeeded. Also the bucket
// lookup every write starts with (as the superuser: limits apply whatever the caller may see).
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { asCaller, type RequestAuth, type ServerContext } from '../http.ts';
import type { Sql } from '../db/engine.ts';
import { errors, mapDbError } from './errors.ts';
import { checkObjectName, versionPath } from './keys.ts';
import { checkContent, receiveUpload, type ReceivedFile, type UploadLimits } from './body.ts';

export interface Store {
  ctx: ServerContext;
  /** Upload temp files; on the same file system as the objects so rename is atomic. */
  tmpDir: string;
}

export type ReqLike = Pick<IncomingMessage, 'method' | 'headers'>;

export interface BucketRow {
  id: string;
  public: boolean;
  file_size_limit: number | string | null;
  allowed_mime_types: string[] | null;
}

export interface ObjectRow {
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

export const OBJECT_COLUMNS = `id, bucket_id, name, owner, owner_id, version, metadata, user_metadata,
  ${iso('created_at')} as created_at, ${iso('updated_at')} as updated_at, ${iso('last_accessed_at')} as last_accessed_at`;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

export async function removeVersions(s: Store, versions: (string | null)[]): Promise<void> {
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

// Copy and move between names and buckets: the source as the caller reads it, the destination checked
// as an upload would be (its bucket's types, size limit and content check, and the caller's policies).
import { randomUUID } from 'node:crypto';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { asCaller, type RequestAuth } from '../http.ts';
import { errors, mapDbError } from './errors.ts';
import { checkObjectName, storedFile } from './keys.ts';
import { checkContent, checkMimeType } from './body.ts';
import { allowDeleteQuery, commitObject, findBucket, findVisibleObject, limitsOf, md5OfFile, testPermission, UUID, writeObjectRow, type ReqLike, type Store } from './object-rows.ts';

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
  const { file, size } = await storedFile(s.ctx.storageDir, source.version);
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

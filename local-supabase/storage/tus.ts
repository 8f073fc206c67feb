// Resumable uploads (TUS 1.0) at /storage/v1/upload/resumable, as Supabase offers them, on @tus/server
// with @tus/file-store. Upload-Metadata carries Supabase's keys: bucketName, objectName, contentType,
// cacheControl (and metadata). The same RLS, size and type rules as plain uploads apply: RLS insert is
// tested before the upload is accepted, and the row is written as the caller when the last byte lands.
import { mkdirSync } from 'node:fs';
import { readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Server, type ServerOptions } from '@tus/server';
import { FileStore } from '@tus/file-store';
import { authenticate, HttpError, JwtError, type RequestAuth } from '../http.ts';
import { checkMimeType } from './body.ts';
import { errors } from './errors.ts';
import { checkObjectName, tusDir } from './keys.ts';
import { commitObject, findBucket, limitsOf, md5OfFile, testPermission, writeObjectRow, type Store } from './object-rows.ts';

type TusRequest = Parameters<NonNullable<ServerOptions['onUploadFinish']>>[0];
type TusUpload = Parameters<NonNullable<ServerOptions['onUploadFinish']>>[1];

export const TUS_PATH = '/storage/v1/upload/resumable';
// Kept in the upload's own record (never taken from the client: onUploadCreate overwrites them).
const CALLER_KEY = 'localSupabaseCaller';
const UPSERT_KEY = 'localSupabaseUpsert';

/** Who may continue an upload: the same user (or, without a user, the same role). */
function callerId(auth: RequestAuth): string {
  return auth.claims.sub ? `user:${auth.claims.sub}` : `role:${auth.role}`;
}

function nodeRequest(req: TusRequest): IncomingMessage {
  const node = req.runtime?.node?.req;
  // Our server is node:http, so this is always an IncomingMessage.
  if (!node || !('socket' in node)) throw new Error('tus request without its Node.js request');
  return node as IncomingMessage;
}

function metadataOf(upload: TusUpload): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(upload.metadata ?? {})) if (typeof v === 'string') out[k] = v;
  return out;
}

function parseUploadMetadataHeader(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (header ?? '').split(',')) {
    const [key, value] = pair.trim().split(' ');
    if (key) out[key] = value ? Buffer.from(value, 'base64').toString('utf8') : '';
  }
  return out;
}

/**
 * Unfinished uploads untouched for a day are dropped at startup, as they expire on Supabase.
 * (The store's own expiration is not used: it re-reads finished uploads, which we move away.)
 */
async function sweepStaleUploads(directory: string): Promise<void> {
  const cutoff = Date.now() - 24 * 3600 * 1000;
  for (const entry of await readdir(directory).catch(() => [])) {
    if (!entry.endsWith('.json')) continue;
    const files = [path.join(directory, entry), path.join(directory, entry.slice(0, -'.json'.length))];
    const times = await Promise.all(files.map((f) => stat(f).then((i) => i.mtimeMs, () => 0)));
    if (Math.max(...times) < cutoff) for (const f of files) await unlink(f).catch(() => {});
  }
}

export function createTusHandler(s: Store) {
  const directory = tusDir(s.ctx.storageDir);
  mkdirSync(directory, { recursive: true });
  const datastore = new FileStore({ directory });

  const server: Server = new Server({
    path: TUS_PATH,
    datastore,
    // Upload ids come from the default random naming function; names never reach the file system.
    async maxSize(req, id) {
      let bucketName = parseUploadMetadataHeader(req.headers.get('upload-metadata')).bucketName;
      if (!bucketName && id) bucketName = metadataOf(await datastore.getUpload(id)).bucketName;
      const bucket = bucketName ? await findBucket(s.ctx, bucketName) : null;
      return (bucket && limitsOf(bucket).maxSize) || 0;
    },
    async onIncomingRequest(req, id) {
      if (req.method === 'POST') return;
      const auth = await authenticate(nodeRequest(req), s.ctx.config);
      const upload = await datastore.getUpload(id);
      if (auth.role !== 'service_role' && upload.metadata?.[CALLER_KEY] !== callerId(auth)) {
        throw errors.accessDenied('You do not have access to this upload');
      }
    },
    async onUploadCreate(req, upload) {
      const node = nodeRequest(req);
      const auth = await authenticate(node, s.ctx.config);
      const meta = metadataOf(upload);
      const bucketName = meta.bucketName ?? '';
      const objectName = checkObjectName(meta.objectName ?? '');
      const bucket = await findBucket(s.ctx, bucketName);
      if (!bucket) throw errors.bucketNotFound();
      checkMimeType(meta.contentType || 'application/octet-stream', limitsOf(bucket).allowedMimeTypes);
      const upsert = node.headers['x-upsert'] === 'true';
      const probe = { id: randomUUID(), bucketId: bucketName, name: objectName, owner: auth.claims.sub, metadata: null, version: null, userMetadata: null };
      await testPermission(s, auth, node, (tx) => writeObjectRow(tx, probe, upsert));
      return { metadata: { ...upload.metadata, [CALLER_KEY]: callerId(auth), [UPSERT_KEY]: String(upsert) } };
    },
    async onUploadFinish(req, upload) {
      const node = nodeRequest(req);
      const meta = metadataOf(upload);
      const tempPath = upload.storage?.path ?? path.join(directory, upload.id);
      try {
        const auth = await authenticate(node, s.ctx.config);
        const size = (await stat(tempPath)).size;
        let userMetadata: Record<string, unknown> | null = null;
        try {
          userMetadata = meta.metadata ? (JSON.parse(meta.metadata) as Record<string, unknown>) : null;
        } catch {
          userMetadata = null;
        }
        // Checked again as the caller at the end: commitObject inserts the row under RLS.
        await commitObject(s, auth, node, meta.bucketName, meta.objectName, meta[UPSERT_KEY] === 'true', {
          tempPath,
          size,
          eTag: await md5OfFile(tempPath),
          mimetype: meta.contentType || 'application/octet-stream',
          cacheControl: meta.cacheControl ? (/^\d+$/.test(meta.cacheControl) ? `max-age=${meta.cacheControl}` : meta.cacheControl) : 'no-cache',
          userMetadata,
        });
        await datastore.configstore.delete(upload.id);
      } catch (e) {
        // The upload is over either way: drop its bytes (if still here) and its record.
        await unlink(tempPath).catch(() => {});
        await datastore.configstore.delete(upload.id).catch(() => {});
        throw e;
      }
      return {};
    },
    onResponseError(_req, err) {
      if (err instanceof HttpError) return { status_code: err.status, body: JSON.stringify(err.body) };
      if ('status_code' in err && err.status_code === 413) {
        return { status_code: 413, body: JSON.stringify(errors.tooLarge().body) };
      }
      if (err instanceof JwtError) {
        return { status_code: 403, body: JSON.stringify(errors.accessDenied(err.message).body) };
      }
      return undefined;
    },
  });

  void sweepStaleUploads(directory);

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Partial uploads are not readable; Supabase offers no GET here either.
    if (req.method === 'GET') throw errors.notFound();
    await server.handle(req, res);
  };
}

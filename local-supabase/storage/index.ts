// /storage/v1: the subset of Supabase Storage's HTTP API that storage-js (v2) and the app use.
import { mkdirSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { authenticate, CallerQueueFull, JwtError, readJson, sendJson, type Handler, type RequestAuth, type ServerContext } from '../http.ts';
import { isPgError } from '../db/engine.ts';
import * as buckets from './buckets.ts';
import { errors } from './errors.ts';
import { checkObjectName, objectsDir, tempDir } from './keys.ts';
import { findBucket, findObjectAsSuperuser, findVisibleObject, uploadObject, type Store } from './object-rows.ts';
import { objectInfo, sendObject } from './serve-object.ts';
import { listObjects, removeObjects, type ListOptions } from './list-remove.ts';
import { listObjectsV2 } from './list-v2.ts';
import { checkExpiresIn, createSignedUploadUrl, signObjectUrl, uploadWithSignedUrl, verifySignedUrl } from './signed-urls.ts';
import { copyObject, moveObject } from './copy-move.ts';
import { createTusHandler } from './tus.ts';
import { createImageRenderer } from './render.ts';

/**
 * The caller of a route that needs a JWT. Storage verifies the Authorization header (the gateway puts
 * the apikey there when it is missing); with neither, it has an empty JWT to verify, and refuses it.
 */
async function caller(req: IncomingMessage, s: Store): Promise<RequestAuth> {
  if (!req.headers.authorization && !req.headers.apikey) throw errors.accessDenied('Invalid Compact JWS');
  try {
    return await authenticate(req, s.ctx.config);
  } catch (e) {
    if (e instanceof JwtError) throw errors.accessDenied(e.expired ? 'jwt expired' : e.message);
    throw e;
  }
}

/**
 * URL path segments, percent-decoded; a malformed escape is an invalid key, and so is a NUL byte,
 * which no Postgres text can hold (the bucket id would otherwise reach a query and fail there).
 */
function segmentsOf(path: string): string[] {
  return path
    .split('/')
    .slice(1)
    .map((seg) => {
      let decoded: string;
      try {
        decoded = decodeURIComponent(seg);
      } catch {
        throw errors.invalidKey(seg);
      }
      if (decoded.includes('\u0000')) throw errors.invalidKey(seg);
      return decoded;
    });
}

/** `bucket/name/with/slashes` from segments; an empty or missing name is an invalid key. */
function target(segs: string[]): { bucketId: string; name: string } {
  const [bucketId, ...rest] = segs;
  if (!bucketId) throw errors.bucketNotFound();
  return { bucketId, name: checkObjectName(rest.join('/')) };
}

export function createStorageHandler(ctx: ServerContext): Handler & { close?: () => Promise<void> } {
  const s: Store = { ctx, tmpDir: tempDir(ctx.storageDir) };
  // Whatever is in tmp is from uploads a previous run never finished.
  rmSync(s.tmpDir, { recursive: true, force: true });
  mkdirSync(s.tmpDir, { recursive: true });
  mkdirSync(objectsDir(ctx.storageDir), { recursive: true });
  const tus = createTusHandler(s);
  const renderer = createImageRenderer(s);

  async function route(req: IncomingMessage, res: Parameters<Handler>[1], path: string, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    const segs = segmentsOf(path);
    const read = method === 'GET' || method === 'HEAD';

    if (segs[0] === 'upload' && segs[1] === 'resumable') {
      await caller(req, s); // an invalid JWT is refused before the TUS layer sees the request
      return tus(req, res);
    }

    if (segs[0] === 'bucket') {
      const auth = await caller(req, s);
      const id = segs[1];
      if (method === 'GET' && segs.length === 1) return sendJson(res, 200, await buckets.listBuckets(s, auth, req, url));
      if (method === 'POST' && segs.length === 1) return sendJson(res, 200, await buckets.createBucket(s, auth, req, await readJson(req)));
      if (id && segs.length === 2) {
        if (method === 'GET') return sendJson(res, 200, await buckets.getBucket(s, auth, req, id));
        if (method === 'PUT') return sendJson(res, 200, await buckets.updateBucket(s, auth, req, id, await readJson(req)));
        if (method === 'DELETE') return sendJson(res, 200, await buckets.deleteBucket(s, auth, req, id));
      }
      if (id && segs[2] === 'empty' && method === 'POST') return sendJson(res, 200, await buckets.emptyBucketRoute(s, auth, req, id));
      throw errors.notFound();
    }

    // Image transformations (render.ts): the same access rules as the object downloads below.
    if (segs[0] === 'render' && segs[1] === 'image' && read) {
      return renderer.route(req, res, url, segs[2], () => target(segs.slice(3)), () => caller(req, s));
    }

    if (segs[0] !== 'object') throw errors.notFound();
    const [, kind] = segs;

    // Public and signed downloads need no JWT: the bucket flag or the token decides.
    if (kind === 'public' && read) {
      const { bucketId, name } = target(segs.slice(2));
      const bucket = await findBucket(ctx, bucketId);
      if (!bucket?.public) throw errors.bucketNotFound();
      const obj = await findObjectAsSuperuser(s, bucketId, name);
      if (!obj) throw errors.objectNotFound();
      return sendObject(s, req, res, obj, url);
    }
    if (kind === 'sign' && read) {
      const { bucketId, name } = target(segs.slice(2));
      await verifySignedUrl(s, url.searchParams.get('token'), bucketId, name);
      const obj = await findObjectAsSuperuser(s, bucketId, name);
      if (!obj) throw errors.objectNotFound();
      return sendObject(s, req, res, obj, url);
    }

    if (kind === 'upload' && segs[2] === 'sign' && method === 'PUT') {
      const { bucketId, name } = target(segs.slice(3));
      return sendJson(res, 200, await uploadWithSignedUrl(s, req, url.searchParams.get('token'), bucketId, name));
    }

    const auth = await caller(req, s);

    if (kind === 'upload' && segs[2] === 'sign' && method === 'POST') {
      const { bucketId, name } = target(segs.slice(3));
      return sendJson(res, 200, await createSignedUploadUrl(s, auth, req, bucketId, name, req.headers['x-upsert'] === 'true'));
    }
    if (kind === 'authenticated' && read) {
      const { bucketId, name } = target(segs.slice(2));
      const obj = await findVisibleObject(s, auth, req, bucketId, name);
      if (!obj) throw errors.objectNotFound();
      return sendObject(s, req, res, obj, url);
    }
    if (kind === 'info' && method === 'GET') {
      const rest = segs[2] === 'authenticated' || segs[2] === 'public' ? segs.slice(3) : segs.slice(2);
      const { bucketId, name } = target(rest);
      const obj = await findVisibleObject(s, auth, req, bucketId, name);
      if (!obj) throw errors.objectNotFound();
      return sendJson(res, 200, objectInfo(obj));
    }
    if (kind === 'list' && method === 'POST' && segs.length === 3) {
      const body = await readJson<ListOptions>(req);
      return sendJson(res, 200, await listObjects(s, auth, req, segs[2], body));
    }
    if (kind === 'list-v2' && method === 'POST' && segs.length === 3) {
      return sendJson(res, 200, await listObjectsV2(s, auth, req, segs[2], await readJson(req)));
    }
    if (kind === 'sign' && method === 'POST') {
      const body = await readJson<{ expiresIn?: unknown; paths?: unknown; transform?: unknown }>(req);
      const expiresIn = checkExpiresIn(body.expiresIn);
      if (segs.length === 3) return sendJson(res, 200, await signMany(s, auth, req, segs[2], body.paths, expiresIn));
      const { bucketId, name } = target(segs.slice(2));
      if (!(await findVisibleObject(s, auth, req, bucketId, name))) throw errors.objectNotFound();
      // With a transform, a /render/image/sign URL whose token holds the transformations.
      const rendered = await renderer.signedRenderUrl(bucketId, name, expiresIn, body.transform);
      return sendJson(res, 200, { signedURL: rendered ?? (await signObjectUrl(s, bucketId, name, expiresIn)) });
    }
    if ((kind === 'move' || kind === 'copy') && method === 'POST' && segs.length === 2) {
      const body = await readJson<{ bucketId?: string; sourceKey?: string; destinationKey?: string; destinationBucket?: string }>(req);
      if (typeof body.bucketId !== 'string' || typeof body.sourceKey !== 'string' || typeof body.destinationKey !== 'string') {
        throw errors.invalidRequest('bucketId, sourceKey and destinationKey are required');
      }
      const from = { bucketId: body.bucketId, name: body.sourceKey };
      const to = { bucketId: body.destinationBucket || body.bucketId, name: body.destinationKey };
      if (kind === 'move') {
        await moveObject(s, auth, req, from, to);
        return sendJson(res, 200, { message: 'Successfully moved' });
      }
      const copied = await copyObject(s, auth, req, from, to, req.headers['x-upsert'] === 'true');
      return sendJson(res, 200, copied);
    }

    // /object/{bucket}/{name}
    const rest = segs.slice(1);
    if (method === 'DELETE' && rest.length === 1) {
      const body = await readJson<{ prefixes?: unknown }>(req);
      const prefixes = body.prefixes;
      if (!Array.isArray(prefixes) || prefixes.length === 0 || prefixes.length > 1000 || prefixes.some((p) => typeof p !== 'string')) {
        throw errors.invalidRequest('body/prefixes must be an array of 1 to 1000 strings');
      }
      return sendJson(res, 200, await removeObjects(s, auth, req, rest[0], prefixes as string[]));
    }
    const { bucketId, name } = target(rest);
    if (read) {
      const obj = await findVisibleObject(s, auth, req, bucketId, name);
      if (!obj) throw errors.objectNotFound();
      return sendObject(s, req, res, obj, url);
    }
    if (method === 'POST' || method === 'PUT') {
      // PUT (update) overwrites, as Storage's uploadOverridingObject does; POST only with x-upsert.
      const upsert = method === 'PUT' || req.headers['x-upsert'] === 'true';
      return sendJson(res, 200, await uploadObject(s, req, auth, bucketId, name, upsert));
    }
    if (method === 'DELETE') {
      const removed = await removeObjects(s, auth, req, bucketId, [name]);
      if (removed.length === 0) throw errors.objectNotFound();
      return sendJson(res, 200, { message: 'Successfully deleted' });
    }
    throw errors.notFound();
  }

  return async (req, res, path, url) => {
    try {
      await route(req, res, path, url);
    } catch (e) {
      // Let an unread upload body flow away so the client receives the error instead of a reset.
      if (!req.readableEnded) req.resume();
      // A value Postgres refuses (class 22: a NUL byte in a prefix, a malformed number) is the
      // request's fault: 400, not a 500.
      if (isPgError(e) && e.code?.startsWith('22')) throw errors.invalidRequest('Invalid input');
      // The caller's queue for the database is full (http.ts): the same 429, in Storage's words.
      if (e instanceof CallerQueueFull) throw errors.tooManyRequests(String(e.body.message));
      throw e;
    }
  };
}

async function signMany(s: Store, auth: RequestAuth, req: IncomingMessage, bucketId: string, paths: unknown, expiresIn: number) {
  if (!Array.isArray(paths) || paths.length === 0 || paths.some((p) => typeof p !== 'string')) {
    throw errors.invalidRequest('body/paths must be a non-empty array of strings');
  }
  const out = [];
  for (const p of paths as string[]) {
    const visible = await findVisibleObject(s, auth, req, bucketId, p);
    out.push(
      visible
        ? { error: null, path: p, signedURL: await signObjectUrl(s, bucketId, p, expiresIn) }
        : { error: 'Either the object does not exist or you do not have access to it', path: p, signedURL: null },
    );
  }
  return out;
}

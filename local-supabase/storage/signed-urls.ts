// Signed URLs: download tokens (and render tokens, which carry their transformations) and upload
// tokens, HS256 with the project secret, each valid for exactly one object. One verifier for all.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { jwtVerify, errors as joseErrors } from 'jose';
import type { RequestAuth } from '../http.ts';
import { signJwt } from '../jwt.ts';
import { errors } from './errors.ts';
import { checkObjectName } from './keys.ts';
import { receiveUpload } from './body.ts';
import { commitObject, findBucket, limitsOf, testPermission, writeObjectRow, type BucketRow, type ReqLike, type Store } from './object-rows.ts';

/** A signed URL's token: HS256 with the project secret and the object's `bucket/name` as `url`, with its claims. */
export function signObjectToken(s: Store, bucketId: string, name: string, claims: Record<string, unknown>, expiresIn: number): Promise<string> {
  return signJwt({ url: `${bucketId}/${name}`, ...claims }, s.ctx.config.jwtSecret, expiresIn);
}

export async function signObjectUrl(s: Store, bucketId: string, name: string, expiresIn: number): Promise<string> {
  return `/object/sign/${bucketId}/${name}?token=${await signObjectToken(s, bucketId, name, {}, expiresIn)}`;
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
  const token = await signObjectToken(s, bucketId, name, { owner: auth.claims.sub, upsert }, 2 * 3600);
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

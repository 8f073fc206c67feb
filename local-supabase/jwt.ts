// JWTs as Supabase issues and checks them. HS256 with the project's JWT secret: the anon and
// service-role keys, storage's signed URLs, and every access token of a project without signing keys.
// With `[auth] signing_keys_path` (supabase/config.toml, the Supabase CLI's JWK file), access tokens
// are signed with the asymmetric key GoTrue picks (RS256 or ES256, its `kid` in the header) and
// verified by the key their `kid` names; /auth/v1/.well-known/jwks.json publishes the public halves.
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { SignJWT, decodeProtectedHeader, jwtVerify, errors, type JWTPayload } from 'jose';

export type DbRole = 'anon' | 'authenticated' | 'service_role';
export const DB_ROLES: readonly DbRole[] = ['anon', 'authenticated', 'service_role'];

export interface JwtClaims {
  sub?: string;
  role: DbRole;
  aud?: string | string[];
  email?: string;
  exp?: number;
  iat?: number;
  session_id?: string;
  app_metadata?: Record<string, unknown>;
  user_metadata?: Record<string, unknown>;
  [claim: string]: unknown;
}

export class JwtError extends Error {
  constructor(
    message: string,
    readonly expired = false,
  ) {
    super(message);
  }
}

/** The algorithms of the keys `supabase gen signing-key` makes (the CLI accepts no others). */
export type SigningAlgorithm = 'RS256' | 'ES256';

/** A public key as /.well-known/jwks.json lists it. */
export type PublicJwk = Record<string, unknown>;

export interface AsymmetricKey {
  kid: string;
  alg: SigningAlgorithm;
  publicKey: KeyObject;
  publicJwk: PublicJwk;
}

/** The keys of `[auth] signing_keys_path`. */
export interface SigningKeys {
  /** GoTrue's signing key: the one whose key_ops include "sign". */
  signer: AsymmetricKey & { privateKey: KeyObject };
  /** Every key of the file, in its order, by kid: a token naming one is checked with that key only. */
  byKid: ReadonlyMap<string, AsymmetricKey>;
}

/** What signs and verifies tokens: LocalSupabaseConfig has both fields. */
export interface JwtKeys {
  jwtSecret: string;
  signingKeys: SigningKeys | null;
}

const secretKey = (secret: string) => new TextEncoder().encode(secret);

/**
 * Reads a signing-keys file's text as GoTrue reads GOTRUE_JWT_KEYS (the CLI passes the file as is):
 * a JSON array of JWKs, each with a kid; exactly one of them has "sign" in its key_ops (and its
 * private part) and signs; the others only verify tokens they signed before.
 */
export function parseSigningKeys(text: string, source: string): SigningKeys {
  const fail = (why: string): never => {
    throw new Error(`${source}: ${why}`);
  };
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch (e) {
    return fail(`not JSON (${(e as Error).message})`);
  }
  if (!Array.isArray(list) || list.length === 0) fail('expected a JSON array of JWKs (put the key `supabase gen signing-key` prints inside [ ])');
  const byKid = new Map<string, AsymmetricKey>();
  const signers: (AsymmetricKey & { privateKey: KeyObject })[] = [];
  for (const [i, jwk] of (list as unknown[]).entries()) {
    const at = `key ${i + 1}`;
    if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) return fail(`${at} is not a JWK object`);
    const k = jwk as Record<string, unknown>;
    if (typeof k.kid !== 'string' || !k.kid) return fail(`${at} has no kid`);
    if (byKid.has(k.kid)) return fail(`two keys have the kid ${k.kid}`);
    const alg = k.alg;
    if (!((alg === 'RS256' && k.kty === 'RSA') || (alg === 'ES256' && k.kty === 'EC' && k.crv === 'P-256'))) {
      return fail(`${at} (${k.kid}) must be an RS256 RSA key or an ES256 P-256 key, as \`supabase gen signing-key\` makes`);
    }
    let privateKey: KeyObject | null;
    let publicKey: KeyObject;
    try {
      privateKey = typeof k.d === 'string' ? createPrivateKey({ key: k as never, format: 'jwk' }) : null;
      publicKey = privateKey ? createPublicKey(privateKey) : createPublicKey({ key: k as never, format: 'jwk' });
    } catch (e) {
      return fail(`${at} (${k.kid}) is not a usable key: ${(e as Error).message}`);
    }
    // GoTrue publishes each key with use "sig" and key_ops ["verify"] only.
    const publicJwk: PublicJwk = { ...publicKey.export({ format: 'jwk' }), kid: k.kid, alg, use: 'sig', key_ops: ['verify'] };
    const key: AsymmetricKey = { kid: k.kid, alg, publicKey, publicJwk };
    byKid.set(k.kid, key);
    if (Array.isArray(k.key_ops) && k.key_ops.includes('sign')) {
      if (!privateKey) return fail(`${at} (${k.kid}) has "sign" in key_ops but no private part`);
      signers.push({ ...key, privateKey });
    }
  }
  // GoTrue's JwtKeysDecoder.Validate.
  if (signers.length === 0) fail('no signing key detected (a key whose key_ops include "sign")');
  if (signers.length > 1) fail('multiple signing keys detected, only 1 signing key is supported');
  return { signer: signers[0]!, byKid };
}

/** What /auth/v1/.well-known/jwks.json answers: the public keys; none for an HS256-only project (GoTrue never publishes its secret). */
export function publicJwks(keys: JwtKeys): { keys: PublicJwk[] } {
  return { keys: keys.signingKeys ? [...keys.signingKeys.byKid.values()].map((k) => k.publicJwk) : [] };
}

/** An HS256 token with the secret (API keys, storage's signed URLs, tests). */
export async function signJwt(claims: Record<string, unknown>, secret: string, expiresInSec?: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt(now);
  if (expiresInSec !== undefined) jwt = jwt.setExpirationTime(now + expiresInSec);
  return jwt.sign(secretKey(secret));
}

/** An access token as GoTrue signs it: with the signing key and its kid when there is one, else HS256. */
export async function signAccessToken(claims: JWTPayload, keys: JwtKeys): Promise<string> {
  const signer = keys.signingKeys?.signer;
  if (!signer) return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(secretKey(keys.jwtSecret));
  return new SignJWT(claims).setProtectedHeader({ alg: signer.alg, kid: signer.kid, typ: 'JWT' }).sign(signer.privateKey);
}

const INVALID = 'invalid JWT: unable to parse or verify signature';

/**
 * GoTrue's choice of key (parseJWTClaims): the configured key the header's kid names, with that
 * key's algorithm only; else, for HS256, the secret. Anything else is refused: an unknown kid with
 * an asymmetric algorithm, `none`, or an algorithm that is not the named key's (HS256 "signed" with a
 * public key).
 */
function verificationKey(token: string, keys: JwtKeys): { key: KeyObject | Uint8Array; alg: string } {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw new JwtError(INVALID);
  }
  const named = typeof header.kid === 'string' ? keys.signingKeys?.byKid.get(header.kid) : undefined;
  if (named) return { key: named.publicKey, alg: named.alg };
  if (header.alg === 'HS256') return { key: secretKey(keys.jwtSecret), alg: 'HS256' };
  throw new JwtError(INVALID);
}

/** Verifies signature and expiry (no claim checks): what GoTrue's own endpoints need first. */
export async function verifyJwtSignature(token: string, keys: JwtKeys): Promise<JWTPayload> {
  const { key, alg } = verificationKey(token, keys);
  try {
    return (await jwtVerify(token, key, { algorithms: [alg] })).payload;
  } catch (e) {
    if (e instanceof errors.JWTExpired) throw new JwtError('JWT expired', true);
    throw new JwtError(INVALID);
  }
}

/** Verifies signature, algorithm and expiry; the role claim must be one of the database roles. */
export async function verifyJwt(token: string, keys: JwtKeys): Promise<JwtClaims> {
  const payload = await verifyJwtSignature(token, keys);
  const role = payload.role;
  if (typeof role !== 'string' || !DB_ROLES.includes(role as DbRole)) throw new JwtError('JWT role is not allowed');
  return payload as JwtClaims;
}

/** Tokens verified recently, as PostgREST 12's JWT cache keeps them: most requests reuse a token. */
const verified = new Map<string, { secret: string; signingKeys: SigningKeys | null; claims: JwtClaims }>();
const VERIFIED_MAX = 1000;

/**
 * verifyJwt with a cache of verified tokens: a token seen before skips the signature check (the
 * costliest part of a small request) but never its expiry, which is checked on every use.
 */
export async function verifyJwtCached(token: string, keys: JwtKeys): Promise<JwtClaims> {
  const hit = verified.get(token);
  if (hit && hit.secret === keys.jwtSecret && hit.signingKeys === keys.signingKeys) {
    if (hit.claims.exp === undefined || hit.claims.exp > Math.floor(Date.now() / 1000)) return hit.claims; // as jose judges it
    verified.delete(token);
    throw new JwtError('JWT expired', true);
  }
  const claims = Object.freeze(await verifyJwt(token, keys));
  if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!); // the oldest
  verified.set(token, { secret: keys.jwtSecret, signingKeys: keys.signingKeys, claims });
  return claims;
}

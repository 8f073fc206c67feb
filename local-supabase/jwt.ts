// HS256 JWTs as Supabase issues and checks them.
import { SignJWT, jwtVerify, errors } from 'jose';

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

const key = (secret: string) => new TextEncoder().encode(secret);

export async function signJwt(claims: Record<string, unknown>, secret: string, expiresInSec?: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt(now);
  if (expiresInSec !== undefined) jwt = jwt.setExpirationTime(now + expiresInSec);
  return jwt.sign(key(secret));
}

/** Verifies signature, algorithm and expiry; the role claim must be one of the database roles. */
export async function verifyJwt(token: string, secret: string): Promise<JwtClaims> {
  try {
    const { payload } = await jwtVerify(token, key(secret), { algorithms: ['HS256'] });
    const role = payload.role;
    if (typeof role !== 'string' || !DB_ROLES.includes(role as DbRole)) {
      throw new JwtError('JWT role is not allowed');
    }
    return payload as JwtClaims;
  } catch (e) {
    if (e instanceof JwtError) throw e;
    if (e instanceof errors.JWTExpired) throw new JwtError('JWT expired', true);
    throw new JwtError('invalid JWT: unable to parse or verify signature');
  }
}

/** Tokens verified recently, as PostgREST 12's JWT cache keeps them: most requests reuse a token. */
const verified = new Map<string, { secret: string; claims: JwtClaims }>();
const VERIFIED_MAX = 1000;

/**
 * verifyJwt with a cache of verified tokens: a token seen before skips the signature check (the
 * costliest part of a small request) but never its expiry, which is checked on every use.
 */
export async function verifyJwtCached(token: string, secret: string): Promise<JwtClaims> {
  const hit = verified.get(token);
  if (hit && hit.secret === secret) {
    if (hit.claims.exp === undefined || hit.claims.exp > Math.floor(Date.now() / 1000)) return hit.claims; // as jose judges it
    verified.delete(token);
    throw new JwtError('JWT expired', true);
  }
  const claims = Object.freeze(await verifyJwt(token, secret));
  if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!); // the oldest
  verified.set(token, { secret, claims });
  return claims;
}

// Who is calling an /auth/v1 endpoint that needs a token: GoTrue's bearer, JWT, user and session checks.
import type { IncomingMessage } from 'node:http';
import type { JWTPayload } from 'jose';
import type { ServerContext } from '../http.ts';
import { JwtError, verifyJwtSignature } from '../jwt.ts';
import { AuthError, badRequest, forbidden } from './errors.ts';
import { findUserById, isUuid, type UserRow } from './users.ts';

export interface TokenClaims extends JWTPayload {
  role?: unknown;
  session_id?: unknown;
}

export interface CallerUser {
  claims: TokenClaims;
  user: UserRow;
  /** null for a token without a session (e.g. one minted by hand with the JWT secret). */
  sessionId: string | null;
}

/** GoTrue's admin roles. */
const ADMIN_ROLES = ['service_role', 'supabase_admin'];

function bearerToken(req: IncomingMessage): string {
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!m) throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  return m[1]!;
}

export async function verifyBearer(req: IncomingMessage, ctx: ServerContext): Promise<TokenClaims> {
  const token = bearerToken(req);
  try {
    return (await verifyJwtSignature(token, ctx.config)) as TokenClaims;
  } catch (e) {
    const reason = e instanceof JwtError && e.expired ? 'token has invalid claims: token is expired' : 'token is malformed or its signature is invalid';
    throw forbidden('bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`);
  }
}

/** The signed-in user of the bearer token, whose session must still exist. */
export async function requireUser(req: IncomingMessage, ctx: ServerContext): Promise<CallerUser> {
  const claims = await verifyBearer(req, ctx);
  if (!claims.sub) throw forbidden('bad_jwt', 'invalid claim: missing sub claim');
  if (!isUuid(claims.sub)) throw badRequest('bad_jwt', 'invalid claim: sub claim must be a UUID');
  const user = await findUserById(ctx.engine, claims.sub);
  if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
  let sessionId: string | null = null;
  if (claims.session_id !== undefined && claims.session_id !== '' && claims.session_id !== '00000000-0000-0000-0000-000000000000') {
    if (!isUuid(claims.session_id)) throw forbidden('bad_jwt', 'invalid claim: session_id claim must be a UUID');
    const s = await ctx.engine.query(`select 1 from auth.sessions where id = $1 and user_id = $2`, [claims.session_id, user.id]);
    if (!s.rows.length) throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
    sessionId = claims.session_id;
  }
  // A token issued before a ban stops working here at once, not only at its expiry.
  if (user.banned) throw forbidden('user_banned', 'User is banned');
  return { claims, user, sessionId };
}

export async function requireAdmin(req: IncomingMessage, ctx: ServerContext): Promise<TokenClaims> {
  const claims = await verifyBearer(req, ctx);
  if (typeof claims.role !== 'string' || !ADMIN_ROLES.includes(claims.role)) throw forbidden('not_admin', 'User not allowed');
  return claims;
}

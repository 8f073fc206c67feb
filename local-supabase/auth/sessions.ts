// Sessions, refresh tokens (opaque, rotated on every use) and HS256 access tokens with Supabase's claims.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { SignJWT } from 'jose';
import type { Sql } from '../db/engine.ts';
import type { ServerContext } from '../http.ts';
import { serializeUser, USER_COLUMNS, type UserRow } from './users.ts';

export type AuthMethod = 'password' | 'recovery';

export interface SessionResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown>;
}

interface SessionInfo {
  sessionId: string;
  refreshToken: string;
  /** Unix seconds the session was created: the `amr` timestamp of its sign-in. */
  authenticatedAt: number;
  method: AuthMethod;
}

const newRefreshToken = () => randomBytes(24).toString('base64url');

/** The issuer GoTrue puts in tokens: its own public URL. */
export function issuer(req: IncomingMessage, ctx: ServerContext): string {
  const host = req.headers.host;
  const base = host && /^[a-zA-Z0-9.[\]:-]+$/.test(host) ? `http://${host}` : `http://localhost:${ctx.config.port}`;
  return `${base}/auth/v1`;
}

/**
 * Starts a session for a user who just proved who they are: a session row, its first refresh token,
 * and last_sign_in_at. Returns the user as it is now. Runs inside the caller's transaction.
 */
export async function startSession(tx: Sql, userId: string, method: AuthMethod): Promise<{ user: UserRow; session: SessionInfo }> {
  const s = await tx.query<{ id: string; epoch: number }>(
    `insert into auth.sessions (user_id) values ($1) returning id::text as id, floor(extract(epoch from created_at))::float8 as epoch`,
    [userId],
  );
  const session = s.rows[0]!;
  const refreshToken = newRefreshToken();
  await tx.query(`insert into auth.refresh_tokens (token, user_id, session_id) values ($1, $2, $3)`, [refreshToken, userId, session.id]);
  const u = await tx.query<UserRow>(
    `update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1 returning ${USER_COLUMNS}`,
    [userId],
  );
  return {
    user: u.rows[0]!,
    session: { sessionId: session.id, refreshToken, authenticatedAt: Number(session.epoch), method },
  };
}

export async function sessionResponse(
  ctx: ServerContext,
  req: IncomingMessage,
  user: UserRow,
  session: SessionInfo,
): Promise<SessionResponse> {
  const expiresIn = ctx.config.jwtExpiry;
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + expiresIn;
  const claims = {
    aud: user.aud ?? 'authenticated',
    exp,
    iat,
    iss: issuer(req, ctx),
    sub: user.id,
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role || 'authenticated',
    aal: 'aal1',
    amr: [{ method: session.method === 'recovery' ? 'otp' : 'password', timestamp: session.authenticatedAt }],
    session_id: session.sessionId,
    is_anonymous: user.is_anonymous,
  };
  const accessToken = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(ctx.config.jwtSecret));
  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: expiresIn,
    expires_at: exp,
    refresh_token: session.refreshToken,
    user: serializeUser(user),
  };
}

export type RefreshOutcome =
  | { ok: true; user: UserRow; session: SessionInfo }
  | { ok: false; reason: 'not_found' | 'already_used' | 'banned' };

/**
 * Rotates a refresh token: the presented one is revoked and a child issued in the same session.
 * A revoked token presented again is treated as theft, as GoTrue does: every token of that session
 * is revoked. The caller commits this transaction even for the refusal, so the revocation sticks.
 */
export async function rotateRefreshToken(tx: Sql, token: string): Promise<RefreshOutcome> {
  const found = await tx.query<{ id: string; user_id: string; session_id: string | null; revoked: boolean; epoch: number | null }>(
    `select rt.id::text as id, rt.user_id::text as user_id, rt.session_id::text as session_id, rt.revoked,
            floor(extract(epoch from s.created_at))::float8 as epoch
       from auth.refresh_tokens rt left join auth.sessions s on s.id = rt.session_id
      where rt.token = $1
      for update of rt`,
    [token],
  );
  const row = found.rows[0];
  if (!row || !row.session_id || row.epoch === null) return { ok: false, reason: 'not_found' };
  const user = await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1`, [row.user_id]);
  const u = user.rows[0];
  if (!u) return { ok: false, reason: 'not_found' };
  if (u.banned) return { ok: false, reason: 'banned' };
  if (row.revoked) {
    await tx.query(`update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and not revoked`, [
      row.session_id,
    ]);
    return { ok: false, reason: 'already_used' };
  }
  await tx.query(`update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1`, [row.id]);
  const refreshToken = newRefreshToken();
  await tx.query(`insert into auth.refresh_tokens (token, user_id, session_id, parent) values ($1, $2, $3, $4)`, [
    refreshToken,
    row.user_id,
    row.session_id,
    token,
  ]);
  await tx.query(`update auth.sessions set updated_at = now() where id = $1`, [row.session_id]);
  return {
    ok: true,
    user: u,
    session: { sessionId: row.session_id, refreshToken, authenticatedAt: Number(row.epoch), method: 'password' },
  };
}

/** Ends sessions as POST /logout does: GoTrue deletes them, which deletes their refresh tokens too. */
export async function endSessions(tx: Sql, userId: string, sessionId: string | null, scope: 'global' | 'local' | 'others'): Promise<void> {
  if (scope === 'local' && sessionId) {
    await tx.query(`delete from auth.sessions where id = $1 and user_id = $2`, [sessionId, userId]);
  } else if (scope === 'others' && sessionId) {
    await tx.query(`delete from auth.sessions where user_id = $1 and id <> $2`, [userId, sessionId]);
  } else {
    // global, or a token that names no session
    await tx.query(`delete from auth.sessions where user_id = $1`, [userId]);
  }
}

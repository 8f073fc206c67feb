// Sessions, refresh tokens (opaque, rotated on every use) and access tokens with Supabase's claims,
// signed as GoTrue signs them (jwt.ts: the configured signing key, else HS256).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Sql } from '../db/engine.ts';
import type { ServerContext } from '../http.ts';
import { signAccessToken } from '../jwt.ts';
import { authBaseUrl } from './links.ts';
import { serializeUser, USER_COLUMNS, type UserRow } from './users.ts';

export type AuthMethod = 'password' | 'recovery' | 'anonymous';

export interface SessionResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown>;
}

export interface AmrEntry {
  method: string;
  timestamp: number;
}

export interface SessionInfo {
  sessionId: string;
  refreshToken: string;
  /** From the session's auth.mfa_amr_claims, as GoTrue computes it: aal2 once a factor was verified. */
  aal: 'aal1' | 'aal2';
  /** The methods the session was authenticated with, newest first. */
  amr: AmrEntry[];
}

/** The second factors GoTrue counts for aal2. */
const AAL2_METHODS = ['totp', 'mfa/phone', 'mfa/webauthn'];

export const newRefreshToken = () => randomBytes(24).toString('base64url');

/**
 * Starts a session for a user who just proved who they are: a session row, its first refresh token,
 * and last_sign_in_at. Returns the user as it is now. Runs inside the caller's transaction.
 */
export async function startSession(tx: Sql, userId: string, method: AuthMethod): Promise<{ user: UserRow; session: SessionInfo }> {
  const s = await tx.query<{ id: string }>(`insert into auth.sessions (user_id, aal) values ($1, 'aal1') returning id::text as id`, [userId]);
  const sessionId = s.rows[0]!.id;
  await addAmrClaim(tx, sessionId, method === 'recovery' ? 'otp' : method);
  const refreshToken = newRefreshToken();
  await tx.query(`insert into auth.refresh_tokens (token, user_id, session_id) values ($1, $2, $3)`, [refreshToken, userId, sessionId]);
  const u = await tx.query<UserRow>(
    `update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1 returning ${USER_COLUMNS}`,
    [userId],
  );
  return { user: u.rows[0]!, session: { sessionId, refreshToken, ...(await sessionAssurance(tx, sessionId)) } };
}

/** Records that the session was authenticated with `method` now (GoTrue's AddClaimToSession). */
export async function addAmrClaim(tx: Sql, sessionId: string, method: string): Promise<void> {
  await tx.query(
    `insert into auth.mfa_amr_claims (id, session_id, created_at, updated_at, authentication_method)
     values (gen_random_uuid(), $1, now(), now(), $2)
     on conflict on constraint mfa_amr_claims_session_id_authentication_method_pkey do update set updated_at = excluded.updated_at`,
    [sessionId, method],
  );
}

/** GoTrue's CalculateAALAndAMR: every claim of the session, newest first; a totp claim makes it aal2. */
export async function sessionAssurance(tx: Sql, sessionId: string): Promise<Pick<SessionInfo, 'aal' | 'amr'>> {
  const r = await tx.query<{ method: string; ts: number }>(
    `select authentication_method as method, floor(extract(epoch from updated_at))::float8 as ts
       from auth.mfa_amr_claims where session_id = $1 order by updated_at desc`,
    [sessionId],
  );
  const amr = r.rows.map((row) => ({ method: row.method, timestamp: Number(row.ts) }));
  return { aal: amr.some((c) => AAL2_METHODS.includes(c.method)) ? 'aal2' : 'aal1', amr };
}

export async function sessionResponse(
  ctx: ServerContext,
  _req: IncomingMessage, // kept for the callers; the request no longer shapes a token

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
    iss: authBaseUrl(ctx), // GoTrue's issuer: its public URL from config, never the Host header
    sub: user.id,
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role || 'authenticated',
    aal: session.aal,
    amr: session.amr,
    session_id: session.sessionId,
    is_anonymous: user.is_anonymous,
  };
  const accessToken = await signAccessToken(claims, ctx.config);
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
  const found = await tx.query<{ id: string; user_id: string; session_id: string | null; revoked: boolean; live: boolean }>(
    `select rt.id::text as id, rt.user_id::text as user_id, rt.session_id::text as session_id, rt.revoked, s.id is not null as live
       from auth.refresh_tokens rt left join auth.sessions s on s.id = rt.session_id
      where rt.token = $1
      for update of rt`,
    [token],
  );
  const row = found.rows[0];
  if (!row || !row.session_id || !row.live) return { ok: false, reason: 'not_found' };
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
  return { ok: true, user: u, session: { sessionId: row.session_id, refreshToken, ...(await sessionAssurance(tx, row.session_id)) } };
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

// /auth/v1/factors: GoTrue's multi-factor routes for TOTP (internal/api/mfa.go), as auth-js v2 calls
// them: enroll, challenge, verify (a new aal2 session token), unenroll. Phone and WebAuthn factors
// stay disabled, as on a project that only turned on the authenticator app.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { renderSVG } from 'uqr';
import type { Sql } from '../db/engine.ts';
import { sendJson, type ServerContext } from '../http.ts';
import { badRequest, forbidden, internal, notFound, unprocessable } from './errors.ts';
import { requireUser, type CallerUser } from './guard.ts';
import { clientIp } from './rate-limit.ts';
import { addAmrClaim, newRefreshToken, sessionAssurance, sessionResponse } from './sessions.ts';
import { isUuid, USER_COLUMNS, type UserRow } from './users.ts';
import { matchTotp, newTotpSecret, totpUri } from './totp.ts';
import { optString, readAuthBody } from './validate.ts';

/** GoTrue's defaults: MFA_CHALLENGE_EXPIRY_DURATION, MFA_FACTOR_EXPIRY_DURATION, MFA_MAX_ENROLLED_FACTORS. */
const CHALLENGE_EXPIRY_SECONDS = 300;
const UNVERIFIED_FACTOR_EXPIRY_SECONDS = 300;
const MAX_ENROLLED_FACTORS = 10;

interface FactorRow {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: string;
  status: 'verified' | 'unverified';
  secret: string | null;
}

/** The caller as GoTrue's requireAuthentication + requireNotAnonymous see it, with a live session. */
async function caller(req: IncomingMessage, ctx: ServerContext): Promise<CallerUser> {
  const c = await requireUser(req, ctx);
  if (c.user.is_anonymous) throw forbidden('no_authorization', 'Anonymous user not allowed to perform these actions');
  return c;
}

async function sessionIsAal2(db: Sql, sessionId: string | null): Promise<boolean> {
  if (!sessionId) return false;
  const r = await db.query<{ aal: string | null }>(`select aal::text as aal from auth.sessions where id = $1`, [sessionId]);
  return r.rows[0]?.aal === 'aal2';
}

/** GoTrue's loadFactor: the factor must be the caller's. */
async function loadFactor(db: Sql, userId: string, factorId: string): Promise<FactorRow> {
  if (!isUuid(factorId)) throw notFound('validation_failed', 'factor_id must be an UUID');
  const r = await db.query<FactorRow>(
    `select id::text as id, user_id::text as user_id, friendly_name, factor_type::text as factor_type, status::text as status, secret
       from auth.mfa_factors where id = $1 and user_id = $2`,
    [factorId, userId],
  );
  const factor = r.rows[0];
  if (!factor) throw notFound('mfa_factor_not_found', 'Factor not found');
  return factor;
}

/** POST /factors {factor_type, friendly_name, issuer} → the new, unverified factor and its QR code. */
export async function enrollFactor(ctx: ServerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { user, sessionId } = await caller(req, ctx);
  if (!sessionId) throw internal('A valid session and a registered user are required to enroll a factor');
  const body = await readAuthBody(req);
  const factorType = optString(body, 'factor_type');
  const friendlyName = optString(body, 'friendly_name') ?? '';
  if (factorType === 'phone') throw unprocessable('mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone');
  if (factorType === 'webauthn') throw unprocessable('mfa_webauthn_enroll_not_enabled', 'MFA enroll is disabled for WebAuthn');
  if (factorType !== 'totp') throw badRequest('validation_failed', 'factor_type needs to be totp, phone, or webauthn');
  const issuer = optString(body, 'issuer') || new URL(ctx.config.siteUrl).host;

  const secret = newTotpSecret();
  const uri = totpUri(issuer, user.email ?? '', secret);
  const id = randomUUID();
  await ctx.engine.transaction(async (tx) => {
    // GoTrue's validateFactors: drop abandoned enrollments first, then the limits.
    await tx.query(
      `delete from auth.mfa_factors f
        where f.status <> 'verified' and f.created_at + make_interval(secs => $1) < now()
          and not exists (select 1 from auth.mfa_challenges c where c.factor_id = f.id)`,
      [UNVERIFIED_FACTOR_EXPIRY_SECONDS],
    );
    const factors = await tx.query<{ friendly_name: string | null; status: string }>(
      `select friendly_name, status::text as status from auth.mfa_factors where user_id = $1 for update`,
      [user.id],
    );
    if (factors.rows.some((f) => (f.friendly_name ?? '') === friendlyName)) {
      throw unprocessable('mfa_factor_name_conflict', `A factor with the friendly name ${JSON.stringify(friendlyName)} for this user already exists`);
    }
    const verified = factors.rows.filter((f) => f.status === 'verified').length;
    if (factors.rows.length >= MAX_ENROLLED_FACTORS || verified >= MAX_ENROLLED_FACTORS) {
      throw unprocessable('too_many_enrolled_mfa_factors', 'Maximum number of verified factors reached, unenroll to continue');
    }
    if (verified > 0 && !(await sessionIsAal2(tx, sessionId))) {
      throw forbidden('insufficient_aal', 'AAL2 required to enroll a new factor');
    }
    await tx.query(
      `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
       values ($1, $2, $3, 'totp', 'unverified', now(), now(), $4)`,
      [id, user.id, friendlyName, secret],
    );
  });
  sendJson(res, 200, {
    id,
    type: 'totp',
    friendly_name: friendlyName,
    // Raw SVG, as GoTrue sends it; auth-js turns it into a data: URI.
    totp: { qr_code: renderSVG(uri, { ecc: 'M' }), secret, uri },
  });
}

/** POST /factors/{id}/challenge → a challenge the next code is checked against, for 5 minutes. */
export async function challengeFactor(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, factorId: string): Promise<void> {
  const { user } = await caller(req, ctx);
  const factor = await loadFactor(ctx.engine, user.id, factorId);
  if (factor.factor_type !== 'totp') throw unprocessable('mfa_totp_verify_not_enabled', 'MFA verification is disabled for this factor type');
  const id = randomUUID();
  const r = await ctx.engine.transaction(async (tx) => {
    await tx.query(`update auth.mfa_factors set last_challenged_at = now(), updated_at = now() where id = $1`, [factor.id]);
    return tx.query<{ epoch: number }>(
      `insert into auth.mfa_challenges (id, factor_id, created_at, ip_address) values ($1, $2, now(), $3::inet)
       returning floor(extract(epoch from created_at))::float8 as epoch`,
      [id, factor.id, clientIp(req)],
    );
  });
  sendJson(res, 200, { id, type: 'totp', expires_at: Number(r.rows[0]!.epoch) + CHALLENGE_EXPIRY_SECONDS });
}

/**
 * POST /factors/{id}/verify {challenge_id, code} → a session token of aal2. The first verification
 * also makes the factor verified. As GoTrue does, the session's other tokens stop refreshing (a new
 * refresh token is issued), the user's other aal1 sessions end, and unverified factors are dropped.
 */
export async function verifyFactor(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, factorId: string): Promise<void> {
  const { user, sessionId } = await caller(req, ctx);
  const factor = await loadFactor(ctx.engine, user.id, factorId);
  const body = await readAuthBody(req);
  const code = optString(body, 'code') ?? '';
  const challengeId = optString(body, 'challenge_id') ?? '';
  if (!isUuid(challengeId)) throw badRequest('bad_json', 'Could not parse request body as JSON: challenge_id must be a UUID');
  if (!code) throw badRequest('validation_failed', 'Code needs to be non-empty');
  if (factor.factor_type !== 'totp') throw unprocessable('mfa_totp_verify_not_enabled', 'MFA verification is disabled for this factor type');
  if (!sessionId) throw internal('Cannot read SessionId claim as UUID');

  const challenge = await ctx.engine.query<{ verified: boolean; same_ip: boolean; expired: boolean }>(
    `select verified_at is not null as verified, ip_address = $4::inet as same_ip,
            created_at + make_interval(secs => $3) < now() as expired
       from auth.mfa_challenges where id = $1 and factor_id = $2`,
    [challengeId, factor.id, CHALLENGE_EXPIRY_SECONDS, clientIp(req)],
  );
  const c = challenge.rows[0];
  if (!c) throw unprocessable('mfa_factor_not_found', 'MFA factor with the provided challenge ID not found');
  if (c.verified || !c.same_ip) throw unprocessable('mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
  if (c.expired) {
    await ctx.engine.query(`delete from auth.mfa_challenges where id = $1`, [challengeId]);
    throw unprocessable(
      'mfa_challenge_expired',
      `MFA challenge ${challengeId} has expired, verify against another challenge or create a new challenge.`,
    );
  }
  const invalid = () => unprocessable('mfa_verification_failed', 'Invalid TOTP code entered');
  const step = matchTotp(factor.secret ?? '', code);
  if (step === null) throw invalid();

  const result = await ctx.engine.transaction(async (tx) => {
    // A code is accepted once: its step must be later than any step accepted before for this factor
    // (stricter than GoTrue, which accepts a code again within its 90 seconds). The row lock orders
    // two verifications of one factor.
    await tx.query(`select 1 from auth.mfa_factors where id = $1 for update`, [factor.id]);
    const used = await tx.query<{ step: string | null }>(
      `select max(otp_code::bigint)::text as step from auth.mfa_challenges
        where factor_id = $1 and verified_at is not null and otp_code ~ '^[0-9]+$'`,
      [factor.id],
    );
    if (used.rows[0]?.step != null && step <= Number(used.rows[0].step)) throw invalid();
    const marked = await tx.query(
      `update auth.mfa_challenges set verified_at = now(), otp_code = $2 where id = $1 and verified_at is null returning id`,
      [challengeId, String(step)],
    );
    if (!marked.rows.length) throw unprocessable('mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
    await tx.query(`update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1 and status <> 'verified'`, [factor.id]);
    await addAmrClaim(tx, sessionId, 'totp');
    // A fresh refresh token: the one issued at aal1 may no longer refresh this session.
    const last = await tx.query<{ token: string }>(
      `update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and not revoked returning token`,
      [sessionId],
    );
    const refreshToken = newRefreshToken();
    await tx.query(`insert into auth.refresh_tokens (token, user_id, session_id, parent) values ($1, $2, $3, $4)`, [
      refreshToken,
      user.id,
      sessionId,
      last.rows[0]?.token ?? null,
    ]);
    const assurance = await sessionAssurance(tx, sessionId);
    await tx.query(`update auth.sessions set aal = $2::auth.aal_level, factor_id = $3, updated_at = now() where id = $1`, [
      sessionId,
      assurance.aal,
      factor.id,
    ]);
    await tx.query(`delete from auth.sessions where user_id = $1 and aal < 'aal2'`, [user.id]);
    await tx.query(`delete from auth.mfa_factors where user_id = $1 and status = 'unverified' and factor_type = 'totp'`, [user.id]);
    const u = await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1`, [user.id]);
    return { user: u.rows[0]!, session: { sessionId, refreshToken, ...assurance } };
  });
  sendJson(res, 200, await sessionResponse(ctx, req, result.user, result.session));
}

/** DELETE /factors/{id}: an unverified factor freely, a verified one only from an aal2 session. */
export async function unenrollFactor(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, factorId: string): Promise<void> {
  const { user, sessionId } = await caller(req, ctx);
  if (!sessionId) throw internal('A valid session and factor are required to unenroll a factor');
  const factor = await loadFactor(ctx.engine, user.id, factorId);
  if (factor.status === 'verified' && !(await sessionIsAal2(ctx.engine, sessionId))) {
    throw unprocessable('insufficient_aal', 'AAL2 required to unenroll verified factor');
  }
  await ctx.engine.transaction((tx) => removeFactor(tx, user.id, factor.id));
  sendJson(res, 200, { id: factor.id });
}

/** Deletes a factor, after GoTrue's DowngradeSessionsToAAL1: sessions verified with it lose its claim. */
export async function removeFactor(tx: Sql, userId: string, factorId: string): Promise<void> {
  await tx.query(
    `delete from auth.mfa_amr_claims where authentication_method = 'totp'
        and session_id in (select id from auth.sessions where factor_id = $1)`,
    [factorId],
  );
  await tx.query(`update auth.sessions set aal = 'aal1', factor_id = null where user_id = $1 and factor_id = $2`, [userId, factorId]);
  await tx.query(`delete from auth.mfa_factors where id = $1 and user_id = $2`, [factorId, userId]);
}

/** Routes /factors and /factors/{id}[/challenge|/verify]; null when the path is not one of them. */
export function factorRoute(path: string, method: string): ((ctx: ServerContext, req: IncomingMessage, res: ServerResponse) => Promise<void>) | null {
  const m = /^\/factors(?:\/([^/]+)(?:\/(challenge|verify))?)?\/?$/.exec(path);
  if (!m) return null;
  const [, id, action] = m;
  if (!id) return method === 'POST' ? enrollFactor : null;
  if (action === 'challenge' && method === 'POST') return (ctx, req, res) => challengeFactor(ctx, req, res, id);
  if (action === 'verify' && method === 'POST') return (ctx, req, res) => verifyFactor(ctx, req, res, id);
  if (!action && method === 'DELETE') return (ctx, req, res) => unenrollFactor(ctx, req, res, id);
  return null;
}

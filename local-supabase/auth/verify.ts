// /verify: an e-mailed link (GET, a 303 with the tokens in the fragment) or a link's token hash or an
// e-mailed code (POST, JSON) turns into a session, once, within `[auth.email] otp_expiry`, as GoTrue's
// verify.go does for the types e-mail accounts use.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Sql } from '../db/engine.ts';
import { sendJson, type ServerContext } from '../http.ts';
import { badRequest, forbidden, unprocessable } from './errors.ts';
import { digest, redirectTarget, tokenHash, withFragment } from './links.ts';
import { sessionResponse, startSession, type SessionResponse } from './sessions.ts';
import { emailTaken, markEmailIdentityVerified, updateEmailIdentity } from './users.ts';
import { normalizeEmail, optString, readAuthBody } from './validate.ts';

/** `email` is a code of either kind GoTrue mails for it: a sign-up's (confirmation) or a magic link's (recovery). */
const VERIFY_TYPES = ['signup', 'invite', 'magiclink', 'recovery', 'email_change', 'email'] as const;
type VerifyType = (typeof VERIFY_TYPES)[number];
const isVerifyType = (t: string | null | undefined): t is VerifyType => VERIFY_TYPES.includes(t as VerifyType);

/** GoTrue's answer to the first of the two links of a double-confirmed e-mail change. */
const SINGLE_CONFIRMATION = 'Confirmation link accepted. Please proceed to confirm link sent to the other email';
/** GoTrue's refusals: of a link or token hash, and of an e-mailed code with its address. */
const EXPIRED_LINK = 'Email link is invalid or has expired';
const EXPIRED_CODE = 'Token has expired or is invalid';

/** The type GoTrue reports back: `email` becomes the kind of token it matched (signup or magiclink). */
type Redeemed = { kind: 'session'; session: SessionResponse; type: VerifyType } | { kind: 'half' } | null;
type Consumed = { id: string; type: VerifyType } | 'half' | null;

/**
 * Consumes a token once, by the SHA-256 of its token hash; with `email` (a code typed in), only that
 * address's token counts, so one account's code never opens another. signup/invite: the address is
 * confirmed; recovery/magiclink: confirmed too (GoTrue's recoverVerify); email_change: the first of two
 * links is only noted, the last one swaps the address (and confirms it). Expired, used, unknown or banned: null.
 */
async function redeem(ctx: ServerContext, req: IncomingMessage, type: VerifyType, d: string, email: string | null): Promise<Redeemed> {
  const ttl = ctx.config.authEmail.otpExpirySeconds;
  const result = await ctx.engine.transaction(async (tx) => {
    const consumed = await consume(tx, type, d, ttl, email);
    if (consumed === 'half' || !consumed) return consumed;
    return { type: consumed.type, ...(await startSession(tx, consumed.id, 'recovery')) };
  });
  if (result === 'half') return { kind: 'half' };
  if (!result) return null;
  return { kind: 'session', type: result.type, session: await sessionResponse(ctx, req, result.user, result.session) };
}

async function consume(tx: Sql, type: VerifyType, d: string, ttl: number, email: string | null): Promise<Consumed> {
  if (type === 'signup' || type === 'invite') return confirm(tx, type, d, ttl, email);
  if (type === 'recovery' || type === 'magiclink') return recover(tx, type, d, ttl, email);
  if (type === 'email') return (await confirm(tx, 'signup', d, ttl, email)) ?? recover(tx, 'magiclink', d, ttl, email);
  return changeEmail(tx, type, d, ttl, email);
}

/** email_change: the first of two links is only noted; the last swaps the address and verifies its identity. */
async function changeEmail(tx: Sql, type: VerifyType, d: string, ttl: number, email: string | null): Promise<Consumed> {
  const found = await tx.query<{ id: string; email_change: string; other_pending: boolean }>(
    `select id::text as id, email_change,
            (case when email_change_token_new = $1 then coalesce(email_change_token_current, '') else coalesce(email_change_token_new, '') end) <> ''
              and email_change_confirm_status = 0 as other_pending
       from auth.users
      where (email_change_token_new = $1 or email_change_token_current = $1) and coalesce(email_change, '') <> ''
        and email_change_sent_at > now() - make_interval(secs => $2) and coalesce(banned_until <= now(), true)
        and ($3::text is null or (email_change_token_new = $1 and lower(email_change) = lower($3))
                              or (email_change_token_current = $1 and lower(email) = lower($3)))
      for update`,
    [d, ttl, email],
  );
  const row = found.rows[0];
  if (!row) return null;
  if (row.other_pending) {
    await tx.query(
      `update auth.users set email_change_confirm_status = 1,
              email_change_token_new = case when email_change_token_new = $2 then '' else email_change_token_new end,
              email_change_token_current = case when email_change_token_current = $2 then '' else email_change_token_current end
        where id = $1`,
      [row.id, d],
    );
    return 'half';
  }
  // Taken by someone else meanwhile: the change cannot happen.
  if (await emailTaken(tx, row.email_change, row.id)) return null;
  const changed = await one(tx, type, `update auth.users set email = email_change, email_change = '', email_change_token_new = '', email_change_token_current = '',
                          email_change_confirm_status = 0, email_confirmed_at = coalesce(email_confirmed_at, now()), is_anonymous = false, updated_at = now()
                    where id = $1 returning id::text as id`, [row.id]);
  // GoTrue's emailChangeVerify: the email identity follows (created for an account without one).
  if (changed) await updateEmailIdentity(tx, row.id, row.email_change, true);
  return changed;
}

/** signup/invite: the address is confirmed, and so is its email identity (GoTrue's signupVerify). */
async function confirm(tx: Sql, type: VerifyType, d: string, ttl: number, email: string | null): Promise<Consumed> {
  const confirmed = await one(tx, type, `update auth.users set confirmation_token = '', email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
                   where confirmation_token = $1 and confirmation_sent_at > now() - make_interval(secs => $2)
                     and coalesce(banned_until <= now(), true) and ($3::text is null or lower(email) = lower($3))
                   returning id::text as id`, [d, ttl, email]);
  if (confirmed && confirmed !== 'half') await markEmailIdentityVerified(tx, confirmed.id);
  return confirmed;
}

const recover = (tx: Sql, type: VerifyType, d: string, ttl: number, email: string | null) =>
  one(tx, type, `update auth.users set recovery_token = '', email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
                   where recovery_token = $1 and recovery_sent_at > now() - make_interval(secs => $2)
                     and coalesce(banned_until <= now(), true) and ($3::text is null or lower(email) = lower($3))
                   returning id::text as id`, [d, ttl, email]);

async function one(tx: Sql, type: VerifyType, sql: string, params: unknown[]): Promise<Consumed> {
  const id = (await tx.query<{ id: string }>(sql, params)).rows[0]?.id;
  return id ? { id, type } : null;
}

/** GET /verify?token&type&redirect_to: the e-mailed link (its token is a token hash), answered with a 303 like GoTrue. */
export async function verifyLink(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const redirect = redirectTarget(ctx, url.searchParams.get('redirect_to'));
  const token = url.searchParams.get('token') ?? '';
  const type = url.searchParams.get('type');
  if (!isVerifyType(type)) throw badRequest('validation_failed', 'Unsupported verification type');
  const outcome = token ? await redeem(ctx, req, type, digest(token), null) : null;
  let fragment: URLSearchParams;
  if (outcome?.kind === 'session') {
    const s = outcome.session;
    fragment = new URLSearchParams({
      access_token: s.access_token,
      expires_at: String(s.expires_at),
      expires_in: String(s.expires_in),
      refresh_token: s.refresh_token,
      token_type: 'bearer',
      type: outcome.type,
    });
  } else if (outcome?.kind === 'half') {
    fragment = new URLSearchParams({ message: SINGLE_CONFIRMATION });
  } else {
    fragment = new URLSearchParams({ error: 'access_denied', error_code: 'otp_expired', error_description: EXPIRED_LINK });
  }
  res.writeHead(303, { Location: withFragment(redirect, fragment) });
  res.end();
}

/**
 * POST /verify (auth-js verifyOtp): {type, token_hash} (a link's token) or {type, email, token} (the
 * e-mailed code, whose token hash GoTrue derives from the address); the session as JSON.
 */
export async function verifyOtp(ctx: ServerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readAuthBody(req);
  const type = optString(body, 'type');
  if (!type) throw badRequest('validation_failed', 'Verify requires a verification type');
  const token = optString(body, 'token') ?? '';
  const hash = optString(body, 'token_hash') ?? '';
  if (!token === !hash) throw badRequest('validation_failed', 'Verify requires either a token or a token hash');
  const rawEmail = optString(body, 'email');
  const phone = optString(body, 'phone');
  let email: string | null = null;
  if (token) {
    // A phone code: GoTrue checks the number's E.164 form; there are no phone accounts here, so no code matches.
    if (phone && !rawEmail) {
      if (!/^[1-9][0-9]{1,14}$/.test(phone.replace(/^\+/, '').replaceAll(' ', ''))) {
        throw badRequest('validation_failed', 'Invalid phone number format (E.164 required)');
      }
      throw forbidden('otp_expired', EXPIRED_CODE);
    }
    if (!rawEmail || phone) throw badRequest('validation_failed', 'Only an email address or phone number should be provided on verify');
    try {
      email = normalizeEmail(rawEmail);
    } catch {
      throw unprocessable('validation_failed', 'Invalid email format');
    }
  } else if (rawEmail || phone || optString(body, 'redirect_to')) {
    throw badRequest('validation_failed', 'Only the token_hash and type should be provided');
  }
  if (!isVerifyType(type)) throw badRequest('validation_failed', 'Unsupported verification type');
  const outcome = await redeem(ctx, req, type, digest(email ? tokenHash(email, token) : hash), email);
  if (!outcome) throw forbidden('otp_expired', email ? EXPIRED_CODE : EXPIRED_LINK);
  if (outcome.kind === 'half') return sendJson(res, 200, { msg: SINGLE_CONFIRMATION, code: '200' });
  sendJson(res, 200, outcome.session);
}

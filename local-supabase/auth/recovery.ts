// The e-mailed links: POST /recover (password recovery) and POST /resend (the sign-up confirmation or
// an e-mail change again) mail them to the local inbox (../mail) within GoTrue's rate limits, and
// /verify turns a link into a session (a 303 with the tokens in the fragment, or JSON).
//
// /recover and /resend answer the same thing for every address: the per-address limit is taken
// first, the answer is sent, and only then is the address looked up and the e-mail written
// (background.ts), so neither the answer nor its timing tells whether the address has an account.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Sql } from '../db/engine.ts';
import { sendJson, type ServerContext } from '../http.ts';
import { authEmail } from '../mail/templates.ts';
import { afterResponse } from './background.ts';
import { badRequest, forbidden } from './errors.ts';
import { apiBaseUrl, digest, newLinkToken, redirectTarget, verifyUrl, withFragment } from './links.ts';
import type { EmailLimits } from './rate-limit.ts';
import { sessionResponse, startSession, type SessionResponse } from './sessions.ts';
import { emailTaken, findUserByEmail, type UserRow } from './users.ts';
import { normalizeEmail, optString, readAuthBody } from './validate.ts';

/** POST /recover: always {} (no account enumeration); a known address gets the link by e-mail. */
export async function recover(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, url: URL, limits: EmailLimits): Promise<void> {
  const body = await readAuthBody(req);
  const email = normalizeEmail(optString(body, 'email'));
  limits.take(email, 'recovery');
  const redirect = redirectTarget(ctx, url.searchParams.get('redirect_to'));
  sendJson(res, 200, {});
  afterResponse(ctx, 'recovery e-mail', async () => {
    const user = await findUserByEmail(ctx.engine, email);
    if (!user) return;
    const link = newLinkToken();
    await ctx.engine.query(`update auth.users set recovery_token = $2, recovery_sent_at = now(), updated_at = now() where id = $1`, [
      user.id,
      link.digest,
    ]);
    await mail(ctx, 'recovery', email, verifyUrl(ctx, link.token, 'recovery', redirect), redirect);
  });
}

const RESEND_TYPES = ['signup', 'email_change', 'sms', 'phone_change'];

/**
 * POST /resend {type: signup | email_change, email}: the confirmation of a sign-up not yet confirmed,
 * or the links of a pending e-mail change, again; {} in every case, as for /recover.
 */
export async function resend(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, url: URL, limits: EmailLimits): Promise<void> {
  const body = await readAuthBody(req);
  const type = optString(body, 'type') ?? '';
  if (!RESEND_TYPES.includes(type)) throw badRequest('validation_failed', 'Missing one of these types: signup, email_change, sms, phone_change');
  const rawEmail = optString(body, 'email');
  if (type === 'sms' || type === 'phone_change' || (!rawEmail && optString(body, 'phone'))) {
    throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
  }
  if (!rawEmail) throw badRequest('validation_failed', 'Type provided requires an email address');
  const email = normalizeEmail(rawEmail);
  limits.take(email, type === 'signup' ? 'confirmation' : 'email_change');
  const redirect = redirectTarget(ctx, url.searchParams.get('redirect_to'));
  sendJson(res, 200, {});
  afterResponse(ctx, `resend ${type}`, async () => {
    const user = await findUserByEmail(ctx.engine, email);
    if (!user) return;
    if (type === 'signup') {
      if (user.email_confirmed_at) return; // nothing to confirm
      const link = newLinkToken();
      await ctx.engine.query(`update auth.users set confirmation_token = $2, confirmation_sent_at = now() where id = $1`, [user.id, link.digest]);
      await mail(ctx, 'confirmation', email, verifyUrl(ctx, link.token, 'signup', redirect), redirect);
    } else if (user.email_change) {
      const toNew = newLinkToken();
      const toCurrent = ctx.config.authEmail.doubleConfirmChanges ? newLinkToken() : null;
      await ctx.engine.query(
        `update auth.users set email_change_token_new = $2, email_change_token_current = $3, email_change_confirm_status = 0,
                               email_change_sent_at = now()
          where id = $1`,
        [user.id, toNew.digest, toCurrent?.digest ?? ''],
      );
      await mail(ctx, 'email_change', user.email_change, verifyUrl(ctx, toNew.token, 'email_change', redirect), redirect, user);
      if (toCurrent) await mail(ctx, 'email_change', email, verifyUrl(ctx, toCurrent.token, 'email_change', redirect), redirect, user);
    }
  });
}

async function mail(ctx: ServerContext, template: 'recovery' | 'confirmation' | 'email_change', to: string, link: string, redirect: string, user?: UserRow) {
  const values = { ConfirmationURL: link, Email: user?.email ?? to, NewEmail: user?.email_change, SiteURL: ctx.config.siteUrl, RedirectTo: redirect };
  const message = await authEmail(ctx.config, template, values, to);
  ctx.mailbox.send(message);
  ctx.log(`e-mail "${message.subject}" to ${to}: open ${apiBaseUrl(ctx)}/inbox`);
}

// ── /verify ─────────────────────────────────────────────────────────────────────────────────

const VERIFY_TYPES = ['signup', 'recovery', 'email_change'] as const;
type VerifyType = (typeof VERIFY_TYPES)[number];
const isVerifyType = (t: string | null | undefined): t is VerifyType => VERIFY_TYPES.includes(t as VerifyType);

/** GoTrue's answer to the first of the two links of a double-confirmed e-mail change. */
const SINGLE_CONFIRMATION = 'Confirmation link accepted. Please proceed to confirm link sent to the other email';

type Redeemed = { kind: 'session'; session: SessionResponse } | { kind: 'half' } | null;

/**
 * Consumes a link token once. signup: the address is confirmed; recovery: confirmed too (GoTrue's
 * recoverVerify); email_change: the first of two links is only noted, the last one swaps the address
 * (and confirms it). Expired, used, unknown or banned: null.
 */
async function redeem(ctx: ServerContext, req: IncomingMessage, type: VerifyType, token: string): Promise<Redeemed> {
  const ttl = ctx.config.authEmail.otpExpirySeconds;
  const d = digest(token);
  const result = await ctx.engine.transaction(async (tx) => {
    const confirmed = await consume(tx, type, d, ttl);
    return confirmed === 'half' || !confirmed ? confirmed : startSession(tx, confirmed.id, 'recovery');
  });
  if (result === 'half') return { kind: 'half' };
  if (!result) return null;
  return { kind: 'session', session: await sessionResponse(ctx, req, result.user, result.session) };
}

async function consume(tx: Sql, type: VerifyType, d: string, ttl: number): Promise<{ id: string } | 'half' | null> {
  if (type === 'signup') {
    return one(tx, `update auth.users set confirmation_token = '', email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
                     where confirmation_token = $1 and confirmation_sent_at > now() - make_interval(secs => $2)
                       and coalesce(banned_until <= now(), true)
                     returning id::text as id`, [d, ttl]);
  }
  if (type === 'recovery') {
    return one(tx, `update auth.users set recovery_token = '', email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
                     where recovery_token = $1 and recovery_sent_at > now() - make_interval(secs => $2)
                       and coalesce(banned_until <= now(), true)
                     returning id::text as id`, [d, ttl]);
  }
  const found = await tx.query<{ id: string; email_change: string; other_pending: boolean }>(
    `select id::text as id, email_change,
            (case when email_change_token_new = $1 then coalesce(email_change_token_current, '') else coalesce(email_change_token_new, '') end) <> ''
              and email_change_confirm_status = 0 as other_pending
       from auth.users
      where (email_change_token_new = $1 or email_change_token_current = $1) and coalesce(email_change, '') <> ''
        and email_change_sent_at > now() - make_interval(secs => $2) and coalesce(banned_until <= now(), true)
      for update`,
    [d, ttl],
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
  return one(tx, `update auth.users set email = email_change, email_change = '', email_change_token_new = '', email_change_token_current = '',
                          email_change_confirm_status = 0, email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
                    where id = $1 returning id::text as id`, [row.id]);
}

async function one(tx: Sql, sql: string, params: unknown[]): Promise<{ id: string } | null> {
  return (await tx.query<{ id: string }>(sql, params)).rows[0] ?? null;
}

const EXPIRED = 'Email link is invalid or has expired';

/** GET /verify?token&type&redirect_to: the e-mailed link, answered with a 303 like GoTrue. */
export async function verifyLink(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const redirect = redirectTarget(ctx, url.searchParams.get('redirect_to'));
  const token = url.searchParams.get('token') ?? '';
  const type = url.searchParams.get('type');
  if (!isVerifyType(type)) throw badRequest('validation_failed', 'Unsupported verification type');
  const outcome = token ? await redeem(ctx, req, type, token) : null;
  let fragment: URLSearchParams;
  if (outcome?.kind === 'session') {
    const s = outcome.session;
    fragment = new URLSearchParams({
      access_token: s.access_token,
      expires_at: String(s.expires_at),
      expires_in: String(s.expires_in),
      refresh_token: s.refresh_token,
      token_type: 'bearer',
      type,
    });
  } else if (outcome?.kind === 'half') {
    fragment = new URLSearchParams({ message: SINGLE_CONFIRMATION });
  } else {
    fragment = new URLSearchParams({ error: 'access_denied', error_code: 'otp_expired', error_description: EXPIRED });
  }
  res.writeHead(303, { Location: withFragment(redirect, fragment) });
  res.end();
}

/** POST /verify {type, token_hash} (auth-js verifyOtp): the session as JSON. */
export async function verifyOtp(ctx: ServerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readAuthBody(req);
  const type = optString(body, 'type');
  if (!isVerifyType(type)) throw badRequest('validation_failed', 'Unsupported verification type');
  const token = optString(body, 'token_hash') ?? '';
  const outcome = token ? await redeem(ctx, req, type, token) : null;
  if (!outcome) throw forbidden('otp_expired', EXPIRED);
  if (outcome.kind === 'half') return sendJson(res, 200, { msg: SINGLE_CONFIRMATION, code: '200' });
  sendJson(res, 200, outcome.session);
}

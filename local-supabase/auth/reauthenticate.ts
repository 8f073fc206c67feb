// GET /reauthenticate (auth-js reauthenticate): GoTrue's Reauthenticate. A signed-in user with a
// confirmed address gets a six-digit code by e-mail (the local inbox); with `[auth.email]
// secure_password_change`, PUT /user takes it as `nonce` to set a new password from a session older
// than 24 hours (GoTrue's UpdatePasswordRequireReauthentication). The code is stored as the SHA-256
// of its token hash only, works once, within `[auth.email] otp_expiry`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Sql } from '../db/engine.ts';
import { sendJson, type ServerContext } from '../http.ts';
import { authEmail } from '../mail/templates.ts';
import { badRequest, unprocessable } from './errors.ts';
import { requireUser, type CallerUser } from './guard.ts';
import { digest, newEmailOtp, tokenHash } from './links.ts';
import { deliver } from './otp.ts';
import type { EmailLimits } from './rate-limit.ts';

/** GoTrue: a session younger than this may change its password without a code. */
const RECENT_SESSION_SECONDS = 24 * 3600;

/** GET /reauthenticate → {} and the code by e-mail. */
export async function reauthenticate(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, limits: EmailLimits): Promise<void> {
  const { user } = await requireUser(req, ctx);
  // Phone accounts do not exist here: an account without an address is an anonymous one.
  if (!user.email) throw badRequest('validation_failed', 'Reauthentication requires the user to have an email or a phone number');
  if (!user.email_confirmed_at) throw unprocessable('email_not_confirmed', 'Please verify your email first.');
  limits.take(user.email, 'reauthentication');
  const code = newEmailOtp(user.email);
  const mail = await authEmail(ctx.config, 'reauthentication', {
    ConfirmationURL: '',
    Email: user.email,
    SiteURL: ctx.config.siteUrl,
    RedirectTo: ctx.config.siteUrl,
    Token: code.otp,
    TokenHash: code.tokenHash,
  });
  await ctx.engine.query(
    `update auth.users set reauthentication_token = $2, reauthentication_sent_at = now(), updated_at = now() where id = $1`,
    [user.id, code.digest],
  );
  deliver(ctx, mail);
  sendJson(res, 200, {});
}

/**
 * With `secure_password_change`, inside PUT /user's transaction: a session younger than 24 hours
 * passes; an older one (or a token without a session) needs the e-mailed code, which this spends.
 */
export async function requireReauthentication(tx: Sql, caller: CallerUser, nonce: string | undefined, otpExpirySeconds: number): Promise<void> {
  if (caller.sessionId) {
    const s = await tx.query<{ recent: boolean }>(
      `select created_at > now() - make_interval(secs => $2) as recent from auth.sessions where id = $1`,
      [caller.sessionId, RECENT_SESSION_SECONDS],
    );
    if (s.rows[0]?.recent) return;
  }
  if (!nonce) throw badRequest('reauthentication_needed', 'Password update requires reauthentication');
  const spent = await tx.query(
    `update auth.users set reauthentication_token = '', reauthentication_sent_at = null
      where id = $1 and reauthentication_token = $2 and reauthentication_sent_at > now() - make_interval(secs => $3)
      returning id`,
    [caller.user.id, digest(tokenHash(caller.user.email ?? '', nonce)), otpExpirySeconds],
  );
  if (!spent.rows.length) throw unprocessable('reauthentication_not_valid', 'Nonce has expired or is invalid');
}

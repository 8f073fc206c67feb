// Password recovery: POST /recover e-mails the link (to the local inbox, ../mail) within GoTrue's rate
// limits, and /verify turns that link into a recovery session (a redirect with the tokens in the
// fragment, or JSON).
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson, type ServerContext } from '../http.ts';
import { recoveryEmail } from '../mail/templates.ts';
import { badRequest, forbidden } from './errors.ts';
import type { EmailLimits } from './rate-limit.ts';
import { issuer, sessionResponse, startSession, type SessionResponse } from './sessions.ts';
import { findUserByEmail } from './users.ts';
import { normalizeEmail, optString, readAuthBody } from './validate.ts';

/** How long a recovery link works (GoTrue's default mailer OTP expiry). */
const RECOVERY_TTL_SECONDS = 3600;

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/** Only redirects to the site or to a loopback origin: anything else falls back to the site URL. */
function safeRedirect(ctx: ServerContext, requested: string | null): string {
  if (!requested) return ctx.config.siteUrl;
  try {
    const u = new URL(requested);
    const site = new URL(ctx.config.siteUrl);
    const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
    if ((u.protocol === 'http:' || u.protocol === 'https:') && (u.origin === site.origin || loopback)) return u.toString();
  } catch {
    // not a URL: use the site
  }
  return ctx.config.siteUrl;
}

/**
 * POST /recover: always {} (no account enumeration); a known address gets the link by e-mail. The
 * per-address limit is taken before the lookup, so unknown addresses are limited alike.
 */
export async function recover(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  limits: EmailLimits,
): Promise<void> {
  const body = await readAuthBody(req);
  const email = normalizeEmail(optString(body, 'email'));
  limits.take(email);
  const user = await findUserByEmail(ctx.engine, email);
  if (user) {
    const token = randomBytes(24).toString('base64url');
    await ctx.engine.transaction((tx) =>
      tx.query(`update auth.users set recovery_token = $2, recovery_sent_at = now(), updated_at = now() where id = $1`, [
        user.id,
        digest(token),
      ]),
    );
    const redirect = safeRedirect(ctx, url.searchParams.get('redirect_to'));
    const link = `${issuer(req, ctx)}/verify?token=${token}&type=recovery&redirect_to=${encodeURIComponent(redirect)}`;
    const mail = await recoveryEmail(ctx.config, { ConfirmationURL: link, Email: email, SiteURL: ctx.config.siteUrl, RedirectTo: redirect });
    ctx.mailbox.send(mail);
    ctx.log(`e-mail "${mail.subject}" to ${email}: open ${new URL(issuer(req, ctx)).origin}/inbox`);
  }
  sendJson(res, 200, {});
}

/** Consumes a recovery token once and opens a session for its user. */
async function redeem(ctx: ServerContext, req: IncomingMessage, token: string): Promise<SessionResponse | null> {
  const result = await ctx.engine.transaction(async (tx) => {
    const r = await tx.query<{ id: string }>(
      `update auth.users set recovery_token = '', email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
        where recovery_token = $1 and recovery_sent_at > now() - make_interval(secs => $2)
          and coalesce(banned_until <= now(), true)
        returning id::text as id`,
      [digest(token), RECOVERY_TTL_SECONDS],
    );
    const id = r.rows[0]?.id;
    return id ? startSession(tx, id, 'recovery') : null;
  });
  return result ? sessionResponse(ctx, req, result.user, result.session) : null;
}

const expired = () => forbidden('otp_expired', 'Email link is invalid or has expired');

/** GET /verify?token&type=recovery&redirect_to: the emailed link, answered with a 303 like GoTrue. */
export async function verifyLink(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const redirect = safeRedirect(ctx, url.searchParams.get('redirect_to'));
  const token = url.searchParams.get('token') ?? '';
  if (url.searchParams.get('type') !== 'recovery') throw badRequest('validation_failed', 'Unsupported verification type');
  const session = token ? await redeem(ctx, req, token) : null;
  const fragment = session
    ? new URLSearchParams({
        access_token: session.access_token,
        expires_at: String(session.expires_at),
        expires_in: String(session.expires_in),
        refresh_token: session.refresh_token,
        token_type: 'bearer',
        type: 'recovery',
      })
    : new URLSearchParams({ error: 'access_denied', error_code: 'otp_expired', error_description: 'Email link is invalid or has expired' });
  res.writeHead(303, { Location: `${redirect}#${fragment.toString()}` });
  res.end();
}

/** POST /verify {type: 'recovery', token_hash} (auth-js verifyOtp): the session as JSON. */
export async function verifyOtp(ctx: ServerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readAuthBody(req);
  if (optString(body, 'type') !== 'recovery') throw badRequest('validation_failed', 'Unsupported verification type');
  const token = optString(body, 'token_hash') ?? '';
  const session = token ? await redeem(ctx, req, token) : null;
  if (!session) throw expired();
  sendJson(res, 200, session);
}

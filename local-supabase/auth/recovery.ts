// The e-mailed links: POST /recover (password recovery) and POST /resend (the sign-up confirmation or
// an e-mail change again) mail them to the local inbox (../mail) within GoTrue's rate limits;
// /verify (verify.ts) turns a link into a session.
//
// /recover and /resend answer the same thing for every address: the per-address limit is taken
// first, the answer is sent, and only then is the address looked up and the e-mail written
// (background.ts), so neither the answer nor its timing tells whether the address has an account.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson, type ServerContext } from '../http.ts';
import { authEmail } from '../mail/templates.ts';
import { afterResponse } from './background.ts';
import { badRequest } from './errors.ts';
import { apiBaseUrl, newLinkToken, redirectTarget, verifyUrl } from './links.ts';
import type { EmailLimits } from './rate-limit.ts';
import { findUserByEmail, type UserRow } from './users.ts';
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

// POST /otp with an e-mail (auth-js signInWithOtp): GoTrue's passwordless sign-in. A confirmed account
// gets the magic_link e-mail, whose link and six-digit code both sign in (recovery_token, as GoTrue's
// magic link reuses it); an unknown address becomes an unconfirmed account (no password) and, like one
// never confirmed, gets the confirmation e-mail, whose link and code confirm it and sign in.
//
// Like /recover, it answers {} for every address before looking it up (background.ts), so neither the
// answer nor its timing tells whether the address has an account. The exception is GoTrue's:
// `shouldCreateUser: false` asks to refuse an unknown address, and that refusal (422) is the answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson, type ServerContext } from '../http.ts';
import type { OutgoingMail } from '../mail/mailbox.ts';
import { authEmail } from '../mail/templates.ts';
import { afterResponse } from './background.ts';
import { badRequest, unprocessable } from './errors.ts';
import { apiBaseUrl, newEmailOtp, redirectTarget, verifyUrl } from './links.ts';
import type { EmailLimits } from './rate-limit.ts';
import { findUserByEmail, insertEmailUser } from './users.ts';
import { normalizeEmail, optBoolean, optObject, optString, readAuthBody } from './validate.ts';

export type EmailOtp = ReturnType<typeof newEmailOtp>;

/** An e-mail carrying a code and its /verify link (`{{ .Token }}`, `{{ .TokenHash }}`, `{{ .ConfirmationURL }}`). */
export function codeMail(
  ctx: ServerContext,
  template: 'magic_link' | 'confirmation' | 'invite',
  to: string,
  code: EmailOtp,
  linkType: 'magiclink' | 'signup' | 'invite',
  redirect: string,
): Promise<OutgoingMail> {
  const values = {
    ConfirmationURL: verifyUrl(ctx, code.tokenHash, linkType, redirect),
    Email: to,
    SiteURL: ctx.config.siteUrl,
    RedirectTo: redirect,
    Token: code.otp,
    TokenHash: code.tokenHash,
  };
  return authEmail(ctx.config, template, values, to);
}

export function deliver(ctx: ServerContext, message: OutgoingMail): void {
  ctx.mailbox.send(message);
  ctx.log(`e-mail "${message.subject}" to ${message.to}: open ${apiBaseUrl(ctx)}/inbox`);
}

/** POST /otp {email, create_user, data}: {} and an e-mail with a code and a link. */
export async function otp(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, url: URL, limits: EmailLimits): Promise<void> {
  const body = await readAuthBody(req);
  const rawEmail = optString(body, 'email');
  const phone = optString(body, 'phone');
  // GoTrue's default: a missing (or null) create_user creates the account.
  const createUser = body.create_user === undefined || body.create_user === null || optBoolean(body, 'create_user');
  const data = optObject(body, 'data') ?? {};
  if (rawEmail && phone) throw badRequest('validation_failed', 'Only an email address or phone number should be provided');
  if (rawEmail && optString(body, 'channel')) throw badRequest('validation_failed', 'Channel should only be specified with Phone OTP');
  if (!rawEmail) {
    if (phone) throw badRequest('phone_provider_disabled', 'Unsupported phone provider');
    throw badRequest('validation_failed', 'One of email or phone must be set');
  }
  const email = normalizeEmail(rawEmail);
  if (!createUser && !(await findUserByEmail(ctx.engine, email))) throw unprocessable('otp_disabled', 'Signups not allowed for otp');
  // One budget for known and unknown addresses alike: GoTrue's magic link reuses the recovery timer.
  limits.take(email, 'recovery');
  const redirect = redirectTarget(ctx, url.searchParams.get('redirect_to'));
  sendJson(res, 200, {});
  afterResponse(ctx, 'otp e-mail', () => sendOtp(ctx, email, data, redirect));
}

async function sendOtp(ctx: ServerContext, email: string, data: Record<string, unknown>, redirect: string): Promise<void> {
  const code = newEmailOtp(email);
  const autoconfirm = !ctx.config.authEmail.enableConfirmations;
  const kind = await ctx.engine.transaction(async (tx) => {
    const found = await tx.query<{ id: string; confirmed: boolean }>(
      `select id::text as id, email_confirmed_at is not null as confirmed from auth.users
        where lower(email) = lower($1) and is_sso_user = false order by created_at limit 1 for update`,
      [email],
    );
    let user = found.rows[0];
    if (!user) {
      // With confirmations off GoTrue signs the new address up confirmed, then mails the magic link.
      const row = await insertEmailUser(tx, { email, passwordHash: '', data, confirmed: autoconfirm, confirmationDigest: autoconfirm ? '' : code.digest, invited: false });
      if (!autoconfirm) return 'signup';
      user = { id: row.id, confirmed: true };
    }
    if (!user.confirmed) {
      await tx.query(`update auth.users set confirmation_token = $2, confirmation_sent_at = now() where id = $1`, [user.id, code.digest]);
      return 'signup';
    }
    await tx.query(`update auth.users set recovery_token = $2, recovery_sent_at = now(), updated_at = now() where id = $1`, [user.id, code.digest]);
    return 'magiclink';
  });
  const message =
    kind === 'magiclink'
      ? await codeMail(ctx, 'magic_link', email, code, 'magiclink', redirect)
      : await codeMail(ctx, 'confirmation', email, code, 'signup', redirect);
  deliver(ctx, message);
}

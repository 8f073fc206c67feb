// POST /invite (auth-js admin.inviteUserByEmail), for the service role only: GoTrue's Invite. A new
// address becomes an unconfirmed account without a password, invited_at set; an account never confirmed
// is invited again; a confirmed one is refused (422 email_exists). The invite e-mail's link (type
// invite) and code confirm the account and sign it in; the application then asks for a password.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson, type ServerContext } from '../http.ts';
import { emailExists, userWriteError } from './account.ts';
import { newEmailOtp, redirectTarget } from './links.ts';
import { codeMail, deliver } from './otp.ts';
import type { EmailLimits } from './rate-limit.ts';
import { insertEmailUser, serializeUser, USER_COLUMNS, type UserRow } from './users.ts';
import { normalizeEmail, optObject, optString, readAuthBody } from './validate.ts';

/** POST /invite {email, data}?redirect_to: the invited user (GoTrue's 200 with the user). */
export async function invite(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, url: URL, limits: EmailLimits): Promise<void> {
  const body = await readAuthBody(req);
  const email = normalizeEmail(optString(body, 'email'));
  const data = optObject(body, 'data') ?? {};
  const redirect = redirectTarget(ctx, url.searchParams.get('redirect_to'));
  // GoTrue counts an invite against email_sent (no max_frequency gap): over it, nothing is written.
  limits.check(email, 'invite');
  const code = newEmailOtp(email);
  // Rendered first: a template that cannot be read fails the request before an account exists.
  const message = await codeMail(ctx, 'invite', email, code, 'invite', redirect);
  let user: UserRow;
  try {
    user = await ctx.engine.transaction(async (tx) => {
      const found = await tx.query<{ id: string; confirmed: boolean }>(
        `select id::text as id, email_confirmed_at is not null as confirmed from auth.users
          where lower(email) = lower($1) and is_sso_user = false order by created_at limit 1 for update`,
        [email],
      );
      const existing = found.rows[0];
      if (existing?.confirmed) throw emailExists();
      if (!existing) return insertEmailUser(tx, { email, passwordHash: '', data, confirmed: false, confirmationDigest: code.digest, invited: true });
      const r = await tx.query<UserRow>(
        `update auth.users set confirmation_token = $2, confirmation_sent_at = now(), invited_at = now(), updated_at = now()
          where id = $1 returning ${USER_COLUMNS}`,
        [existing.id, code.digest],
      );
      return r.rows[0]!;
    });
  } catch (e) {
    throw userWriteError(ctx, e, 'Database error saving new user', emailExists);
  }
  limits.record(email, 'invite');
  deliver(ctx, message);
  sendJson(res, 200, serializeUser(user));
}

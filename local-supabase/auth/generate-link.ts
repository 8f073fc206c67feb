// POST /admin/generate_link (auth-js admin.generateLink), for the service role only: GoTrue's
// adminGenerateLink. It writes the token an e-mail would carry and answers the user with the link,
// the code and its token hash, for an application that sends its own e-mails: it sends none itself.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Sql } from '../db/engine.ts';
import { sendJson, type ServerContext } from '../http.ts';
import { emailExists, userWriteError } from './account.ts';
import { badRequest, notFound } from './errors.ts';
import { digest, newEmailOtp, redirectTarget, tokenHash, verifyUrl } from './links.ts';
import { hashPassword } from './passwords.ts';
import { emailTaken, findUserByEmail, insertEmailUser, mergeMetadata, serializeUser, USER_COLUMNS, type UserRow } from './users.ts';
import { checkPasswordStrength, normalizeEmail, optObject, optString, readAuthBody } from './validate.ts';

const LINK_TYPES = ['signup', 'invite', 'magiclink', 'recovery', 'email_change_current', 'email_change_new'] as const;
type LinkType = (typeof LINK_TYPES)[number];
const isLinkType = (t: string): t is LinkType => LINK_TYPES.includes(t as LinkType);

interface Plan {
  type: LinkType;
  email: string;
  found: UserRow | null;
  data: Record<string, unknown> | undefined;
  passwordHash: string | null;
  newEmail: string | null;
  code: ReturnType<typeof newEmailOtp>;
}

/** POST /admin/generate_link {type, email, password?, new_email?, data?, redirect_to?} */
export async function generateLink(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const body = await readAuthBody(req);
  let type = optString(body, 'type') ?? '';
  const email = normalizeEmail(optString(body, 'email'));
  // The body's redirect_to when it is allowed, else the query's (auth-js sends it there), else site_url.
  const requested = optString(body, 'redirect_to');
  const redirect = requested && redirectTarget(ctx, requested) === requested ? requested : redirectTarget(ctx, url.searchParams.get('redirect_to'));
  const data = optObject(body, 'data');
  let password = optString(body, 'password');
  const rawNewEmail = optString(body, 'new_email');
  const found = await findUserByEmail(ctx.engine, email);
  if (!found) {
    // GoTrue: a magic link for an unknown address is a sign-up with a password nobody knows.
    if (type === 'magiclink') {
      type = 'signup';
      password = randomBytes(32).toString('base64url');
    } else if (type === 'recovery' || type === 'email_change_current' || type === 'email_change_new') {
      throw notFound('user_not_found', 'User with this email not found');
    }
  }
  if (!isLinkType(type)) throw badRequest('validation_failed', `Invalid email action link type requested: ${type}`);
  let passwordHash: string | null = null;
  if (type === 'signup' && !found) {
    if (!password) throw badRequest('validation_failed', 'Signup requires a valid password');
    checkPasswordStrength(password);
    passwordHash = await hashPassword(password);
  }
  let newEmail: string | null = null;
  if (type === 'email_change_current' || type === 'email_change_new') {
    if (type === 'email_change_current' && !ctx.config.authEmail.doubleConfirmChanges) {
      throw badRequest('validation_failed', 'Enable secure email change to generate link for current email');
    }
    newEmail = normalizeEmail(rawNewEmail);
  }
  const plan: Plan = { type, email, found, data, passwordHash, newEmail, code: newEmailOtp(email) };
  let user: UserRow;
  try {
    user = await ctx.engine.transaction((tx) => write(tx, plan));
  } catch (e) {
    throw userWriteError(ctx, e, 'Database error saving new user', emailExists);
  }
  // GoTrue's link for the new address carries the new address's token hash; hashed_token stays the current one's.
  const linkToken = type === 'email_change_new' ? tokenHash(newEmail!, plan.code.otp) : plan.code.tokenHash;
  const linkType = type === 'email_change_current' || type === 'email_change_new' ? 'email_change' : type;
  sendJson(res, 200, {
    ...serializeUser(user),
    action_link: verifyUrl(ctx, linkToken, linkType, redirect),
    email_otp: plan.code.otp,
    hashed_token: plan.code.tokenHash,
    verification_type: type,
    redirect_to: redirect,
  });
}

/** Writes the token (and the account, for a new signup or invite) in one transaction. */
async function write(tx: Sql, p: Plan): Promise<UserRow> {
  const d = p.code.digest;
  const id = p.found?.id ?? null;
  const update = async (sql: string, params: unknown[]) => {
    const r = await tx.query<UserRow>(`${sql} returning ${USER_COLUMNS}`, params);
    if (!r.rows[0]) throw notFound('user_not_found', 'User with this email not found'); // deleted meanwhile
    return r.rows[0];
  };
  switch (p.type) {
    case 'magiclink':
    case 'recovery':
      return update(`update auth.users set recovery_token = $2, recovery_sent_at = now() where id = $1`, [id, d]);
    case 'invite':
      if (!p.found) return insertEmailUser(tx, { email: p.email, passwordHash: '', data: p.data ?? {}, confirmed: false, confirmationDigest: d, invited: true });
      if (p.found.email_confirmed_at) throw emailExists();
      return update(`update auth.users set confirmation_token = $2, confirmation_sent_at = now(), invited_at = now() where id = $1`, [id, d]);
    case 'signup': {
      if (!p.found) return insertEmailUser(tx, { email: p.email, passwordHash: p.passwordHash!, data: p.data ?? {}, confirmed: false, confirmationDigest: d, invited: false });
      if (p.found.email_confirmed_at) throw emailExists();
      // An account not yet confirmed keeps its password; `data` is merged into its metadata, as GoTrue does.
      const metadata = p.data ? JSON.stringify(mergeMetadata(p.found.raw_user_meta_data, p.data)) : null;
      return update(
        `update auth.users set confirmation_token = $2, confirmation_sent_at = now(),
                raw_user_meta_data = coalesce($3::jsonb, raw_user_meta_data), updated_at = now() where id = $1`,
        [id, d, metadata],
      );
    }
    case 'email_change_current':
    case 'email_change_new': {
      if (await emailTaken(tx, p.newEmail!, id)) throw emailExists();
      const current = p.type === 'email_change_current';
      const token = current ? d : digest(tokenHash(p.newEmail!, p.code.otp));
      return update(
        `update auth.users set email_change = $2, email_change_sent_at = now(), email_change_confirm_status = 0,
                email_change_token_current = case when $4::boolean then $3 else email_change_token_current end,
                email_change_token_new = case when $4::boolean then email_change_token_new else $3 end
          where id = $1`,
        [id, p.newEmail, token, current],
      );
    }
  }
}

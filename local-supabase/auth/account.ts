// The endpoints a signed-out visitor or a signed-in user calls: sign-up, token grants, the user, sign-out.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isPgError } from '../db/engine.ts';
import { sendJson, type ServerContext } from '../http.ts';
import { authEmail } from '../mail/templates.ts';
import { afterResponse } from './background.ts';
import { AuthError, badRequest, internal, invalidCredentials, unprocessable } from './errors.ts';
import { requireUser } from './guard.ts';
import { apiBaseUrl, newLinkToken, redirectTarget, verifyUrl } from './links.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { AnonymousSignInLimit, EmailLimits, RequestLimits } from './rate-limit.ts';
import { requireReauthentication } from './reauthenticate.ts';
import { endSessions, rotateRefreshToken, sessionResponse, startSession } from './sessions.ts';
import { emailTaken, findUserByEmail, insertEmailIdentity, mergeMetadata, serializeUser, USER_COLUMNS, type UserRow } from './users.ts';
import { checkPasswordStrength, normalizeEmail, optObject, optString, readAuthBody, type Body } from './validate.ts';

const userExists = () => unprocessable('user_already_exists', 'User already registered');
export const emailExists = () => unprocessable('email_exists', 'A user with this email address has already been registered');

/** Maps a database failure while writing a user: a unique email is a conflict, anything else (a trigger) a 500. */
export function userWriteError(ctx: ServerContext, e: unknown, message: string, conflict: () => AuthError): AuthError {
  if (e instanceof AuthError) return e;
  if (isPgError(e) && e.code === '23505') return conflict();
  ctx.log(`auth: ${message}: ${(e as Error).message}`);
  return internal(message);
}

/** POST /signup: email + password, `data` as user metadata. */
export async function signup(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, url: URL, limits: EmailLimits, body: Body): Promise<void> {
  const rawEmail = optString(body, 'email');
  if (!rawEmail && optString(body, 'phone')) throw unprocessable('phone_provider_disabled', 'Phone signups are disabled');
  const password = optString(body, 'password');
  if (!password) throw unprocessable('validation_failed', 'Signup requires a valid password');
  checkPasswordStrength(password);
  const email = normalizeEmail(rawEmail);
  const data = optObject(body, 'data') ?? {};
  if (!ctx.config.authEmail.enableConfirmations) return autoconfirmedSignup(ctx, req, res, email, password, data);
  // Checked before anything looks at the address, so a 429 says nothing about it either; counted once
  // the sign-up went through (taken or not alike), so a refused one (a trigger's 500) costs nothing.
  limits.check(email, 'confirmation');
  const redirect = redirectTarget(ctx, url.searchParams.get('redirect_to'));
  const hash = await hashPassword(password);
  const link = newLinkToken();
  let outcome: SignupOutcome;
  try {
    outcome = await signupTransaction(ctx, email, hash, data, link.digest);
  } catch (e) {
    // Two sign-ups of one new address at once: the second finds the first's account on a retry.
    if (!(isPgError(e) && e.code === '23505')) throw userWriteError(ctx, e, 'Database error saving new user', userExists);
    outcome = await signupTransaction(ctx, email, hash, data, link.digest).catch((again: unknown) => {
      throw userWriteError(ctx, again, 'Database error saving new user', userExists);
    });
  }
  limits.record(email, 'confirmation');
  // The same answer for a new and a taken address (GoTrue's obfuscated user: no session).
  sendJson(res, 200, serializeUser(outcome.user));
  afterResponse(ctx, 'sign-up e-mail', async () => {
    const values = { Email: email, SiteURL: ctx.config.siteUrl, RedirectTo: redirect };
    const mail = outcome.existing
      ? await authEmail(ctx.config, 'repeated_signup', { ...values, ConfirmationURL: redirect })
      : await authEmail(ctx.config, 'confirmation', { ...values, ConfirmationURL: verifyUrl(ctx, link.token, 'signup', redirect) });
    ctx.mailbox.send(mail);
    ctx.log(`e-mail "${mail.subject}" to ${email}: open ${apiBaseUrl(ctx)}/inbox`);
  });
}

interface SignupOutcome {
  /** What the caller is shown: the new account, or for a taken address a look-alike that was never kept. */
  user: UserRow;
  existing: boolean;
}

/**
 * The same statements whether or not the address is taken, so both cost alike: a taken address gets
 * a decoy account (a random id and address, the same metadata and triggers) inserted and read back
 * inside a savepoint that is rolled back, and the transaction commits either way.
 */
async function signupTransaction(ctx: ServerContext, email: string, hash: string, data: Record<string, unknown>, tokenDigest: string): Promise<SignupOutcome> {
  return ctx.engine.transaction(async (tx) => {
    const existing = await emailTaken(tx, email);
    if (existing) await tx.query('savepoint signup_decoy');
    // A plain insert, so triggers on auth.users (the profile trigger) fire as they do on Supabase.
    const ins = await tx.query<{ id: string }>(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, confirmation_token, confirmation_sent_at,
                               raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1, $2, $3, now(),
               $4::jsonb, $5::jsonb, now(), now())
       returning id::text as id`,
      [existing ? `${randomUUID()}@signup-decoy.invalid` : email, hash, tokenDigest, JSON.stringify({ provider: 'email', providers: ['email'] }), JSON.stringify(data)],
    );
    // Its identity carries the address asked for, the decoy's too (it is rolled back with it).
    await insertEmailIdentity(tx, ins.rows[0]!.id, email, { extra: data });
    // Read back after the triggers, as GoTrue reloads the user.
    const row = (await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1`, [ins.rows[0]!.id])).rows[0]!;
    if (!existing) return { user: row, existing: false };
    await tx.query('rollback to savepoint signup_decoy');
    return { user: { ...row, email }, existing: true };
  });
}

/** With confirmations off (`enable_confirmations = false`): confirmed at once, so it signs the user in. */
async function autoconfirmedSignup(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, email: string, password: string, data: Record<string, unknown>) {
  const hash = await hashPassword(password);
  let result: Awaited<ReturnType<typeof startSession>>;
  try {
    result = await ctx.engine.transaction(async (tx) => {
      if (await emailTaken(tx, email)) throw userExists();
      const ins = await tx.query<{ id: string }>(
        `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                                 raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
         values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1, $2, now(),
                 $3::jsonb, $4::jsonb, now(), now())
         returning id::text as id`,
        [email, hash, JSON.stringify({ provider: 'email', providers: ['email'] }), JSON.stringify(data)],
      );
      await insertEmailIdentity(tx, ins.rows[0]!.id, email, { extra: data });
      return startSession(tx, ins.rows[0]!.id, 'password');
    });
  } catch (e) {
    throw userWriteError(ctx, e, 'Database error saving new user', userExists);
  }
  sendJson(res, 200, await sessionResponse(ctx, req, result.user, result.session));
}

/**
 * POST /signup without an e-mail or a phone: GoTrue's SignupAnonymously, when `[auth]
 * enable_anonymous_sign_ins` allows it (this project's config.toml does not). The account has no
 * address and no identity; its session's amr says `anonymous`.
 */
export async function signupAnonymously(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, body: Body, limit: AnonymousSignInLimit): Promise<void> {
  if (!ctx.config.anonymousSignIns.enabled) throw unprocessable('anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
  limit.take(req);
  const data = optObject(body, 'data') ?? {};
  let result: Awaited<ReturnType<typeof startSession>>;
  try {
    result = await ctx.engine.transaction(async (tx) => {
      const ins = await tx.query<{ id: string }>(
        `insert into auth.users (instance_id, id, aud, role, encrypted_password, is_anonymous, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
         values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', '', true, $1::jsonb, $2::jsonb, now(), now())
         returning id::text as id`,
        [JSON.stringify({ provider: 'anonymous', providers: ['anonymous'] }), JSON.stringify(data)],
      );
      return startSession(tx, ins.rows[0]!.id, 'anonymous');
    });
  } catch (e) {
    throw userWriteError(ctx, e, 'Database error creating anonymous user', () => internal('Database error creating anonymous user'));
  }
  sendJson(res, 200, await sessionResponse(ctx, req, result.user, result.session));
}

/** POST /token?grant_type=password|refresh_token */
export async function token(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const grantType = url.searchParams.get('grant_type');
  const body = await readAuthBody(req);
  if (grantType === 'password') return passwordGrant(ctx, req, res, body);
  if (grantType === 'refresh_token') return refreshGrant(ctx, req, res, body);
  throw badRequest('validation_failed', 'unsupported_grant_type');
}

async function passwordGrant(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>) {
  const email = optString(body, 'email')?.trim();
  const password = optString(body, 'password') ?? '';
  if (!email) {
    if (optString(body, 'phone')) throw unprocessable('phone_provider_disabled', 'Phone logins are disabled');
    throw badRequest('validation_failed', 'missing email or phone');
  }
  const user = await findUserByEmail(ctx.engine, email);
  // The password is checked before the ban, so only its owner learns that an account is banned.
  if (!(await verifyPassword(password, user?.encrypted_password)) || !user) throw invalidCredentials();
  if (user.banned) throw badRequest('user_banned', 'User is banned');
  if (!user.email_confirmed_at) throw badRequest('email_not_confirmed', 'Email not confirmed');
  const result = await ctx.engine.transaction((tx) => startSession(tx, user.id, 'password'));
  sendJson(res, 200, await sessionResponse(ctx, req, result.user, result.session));
}

async function refreshGrant(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>) {
  const refreshToken = optString(body, 'refresh_token');
  if (!refreshToken) throw badRequest('validation_failed', 'refresh_token required');
  // The transaction commits even when the token is refused: a reuse revokes the whole session.
  const outcome = await ctx.engine.transaction((tx) => rotateRefreshToken(tx, refreshToken));
  if (!outcome.ok) {
    if (outcome.reason === 'banned') throw badRequest('user_banned', 'Invalid Refresh Token: User Banned');
    if (outcome.reason === 'already_used') {
      ctx.log('auth: a revoked refresh token was presented again; its session was revoked');
      throw badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used');
    }
    throw badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
  }
  sendJson(res, 200, await sessionResponse(ctx, req, outcome.user, outcome.session));
}

/** GET /user */
export async function getUser(ctx: ServerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { user } = await requireUser(req, ctx);
  sendJson(res, 200, serializeUser(user));
}

/** PUT /user: password, email, `data` merged into user metadata; `nonce` with secure_password_change. */
export async function updateUser(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  limits: EmailLimits,
  requestLimits: RequestLimits,
): Promise<void> {
  const caller = await requireUser(req, ctx);
  const body = await readAuthBody(req);
  const nonce = optString(body, 'nonce');
  // A code typed in is a guess like any e-mailed code: it spends the verification budget.
  if (nonce !== undefined) requestLimits.take('tokenVerifications', req);
  if (optObject(body, 'app_metadata')) {
    throw new AuthError(401, 'not_admin', 'Updating app_metadata requires admin privileges');
  }
  const data = optObject(body, 'data');
  const password = optString(body, 'password');
  const rawEmail = optString(body, 'email');
  const email = rawEmail ? normalizeEmail(rawEmail) : undefined;
  let hash: string | null = null;
  if (password !== undefined) {
    checkPasswordStrength(password);
    if (await verifyPassword(password, caller.user.encrypted_password)) {
      throw unprocessable('same_password', 'New password should be different from the old password.');
    }
    hash = await hashPassword(password);
  }
  // With confirmations on, a new address is only recorded: it replaces the old one once its owner (and,
  // with double_confirm_changes, the current address's owner too) opens the e-mailed link.
  const { enableConfirmations, doubleConfirmChanges } = ctx.config.authEmail;
  const changing = !!email && email !== caller.user.email;
  const toNew = newLinkToken();
  const toCurrent = doubleConfirmChanges ? newLinkToken() : null;
  let updated: UserRow;
  try {
    updated = await ctx.engine.transaction(async (tx) => {
      const current = await tx.query<{ raw_user_meta_data: Record<string, unknown> | null; email: string | null }>(
        `select raw_user_meta_data, email from auth.users where id = $1 for update`,
        [caller.user.id],
      );
      if (hash && ctx.config.authEmail.securePasswordChange) {
        await requireReauthentication(tx, caller, nonce, ctx.config.authEmail.otpExpirySeconds);
      }
      const row = current.rows[0];
      if (!row) throw new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
      const newEmail = email && email !== row.email ? email : null;
      if (newEmail && (await emailTaken(tx, newEmail, caller.user.id))) throw emailExists();
      const metadata = data ? JSON.stringify(mergeMetadata(row.raw_user_meta_data, data)) : null;
      const pending = newEmail && enableConfirmations;
      if (pending) limits.take(row.email ?? newEmail, 'email_change');
      const r = await tx.query<UserRow>(
        `update auth.users
            set encrypted_password = coalesce($2, encrypted_password),
                email = coalesce($3, email),
                raw_user_meta_data = coalesce($4::jsonb, raw_user_meta_data),
                email_change = coalesce($5, email_change),
                email_change_token_new = coalesce($6, email_change_token_new),
                email_change_token_current = coalesce($7, email_change_token_current),
                email_change_confirm_status = case when $5::text is null then email_change_confirm_status else 0 end,
                email_change_sent_at = case when $5::text is null then email_change_sent_at else now() end,
                updated_at = now()
          where id = $1
          returning ${USER_COLUMNS}`,
        [
          caller.user.id,
          hash,
          pending ? null : newEmail,
          metadata,
          pending ? newEmail : null,
          pending ? toNew.digest : null,
          pending ? (toCurrent?.digest ?? '') : null,
        ],
      );
      // A new password ends the user's other sessions, as GoTrue does.
      if (hash) await endSessions(tx, caller.user.id, caller.sessionId, caller.sessionId ? 'others' : 'global');
      return r.rows[0]!;
    });
  } catch (e) {
    throw userWriteError(ctx, e, 'Error updating user', emailExists);
  }
  if (changing && enableConfirmations && updated.email_change) {
    const redirect = redirectTarget(ctx, url.searchParams.get('redirect_to'));
    const values = { Email: updated.email ?? '', NewEmail: updated.email_change, SiteURL: ctx.config.siteUrl, RedirectTo: redirect };
    const sends: [string, string][] = [[updated.email_change, toNew.token]];
    if (toCurrent && updated.email) sends.push([updated.email, toCurrent.token]);
    for (const [to, token] of sends) {
      const mail = await authEmail(ctx.config, 'email_change', { ...values, ConfirmationURL: verifyUrl(ctx, token, 'email_change', redirect) }, to);
      ctx.mailbox.send(mail);
    }
  }
  sendJson(res, 200, serializeUser(updated));
}

/** POST /logout?scope=global|local|others → 204 */
export async function logout(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const caller = await requireUser(req, ctx);
  const scope = url.searchParams.get('scope') ?? 'global';
  if (scope !== 'global' && scope !== 'local' && scope !== 'others') {
    throw badRequest('validation_failed', `Unsupported logout scope "${scope}"`);
  }
  await ctx.engine.transaction((tx) => endSessions(tx, caller.user.id, caller.sessionId, scope));
  sendJson(res, 204, undefined);
}

// GoTrue's admin API (/admin/users), for the service role only.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson, type ServerContext } from '../http.ts';
import { emailExists, userWriteError } from './account.ts';
import { badRequest, internal, notFound } from './errors.ts';
import { removeFactor } from './factors.ts';
import { hashPassword } from './passwords.ts';
import { emailTaken, findUserById, insertEmailIdentity, isUuid, mergeMetadata, serializeUser, updateEmailIdentity, USER_COLUMNS, type UserRow } from './users.ts';
import {
  checkPasswordStrength,
  normalizeEmail,
  optBoolean,
  optObject,
  optString,
  parseGoDuration,
  readAuthBody,
  type Body,
} from './validate.ts';

/** ban_duration → milliseconds to ban for (0 lifts a ban), or undefined when not given. */
function banMillis(body: Body): number | undefined {
  const ban = optString(body, 'ban_duration');
  if (!ban) return undefined;
  return ban === 'none' ? 0 : parseGoDuration(ban);
}

/** SQL for banned_until from a bound ban in milliseconds: unchanged when null, lifted at 0 (GoTrue's user.Ban). */
const banSql = (param: string, unchanged: string) =>
  `case when ${param}::float8 is null then ${unchanged}
        when ${param}::float8 = 0 then null
        else now() + make_interval(secs => ${param}::float8 / 1000) end`;

async function loadUser(ctx: ServerContext, id: string): Promise<UserRow> {
  if (!isUuid(id)) throw notFound('validation_failed', 'user_id must be an UUID');
  const user = await findUserById(ctx.engine, id);
  if (!user) throw notFound('user_not_found', 'User not found');
  return user;
}

/** POST /admin/users */
export async function createUser(ctx: ServerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readAuthBody(req);
  const rawEmail = optString(body, 'email');
  if (!rawEmail) {
    if (optString(body, 'phone')) throw badRequest('validation_failed', 'Phone users are not supported by local-supabase');
    throw badRequest('validation_failed', 'Cannot create a user without either an email or phone');
  }
  const email = normalizeEmail(rawEmail);
  const id = optString(body, 'id');
  if (id !== undefined && !isUuid(id)) throw badRequest('validation_failed', 'ID must conform to the uuid v4 format');
  // Without a password GoTrue sets a random one: the account exists but nobody can sign in with it.
  const password = optString(body, 'password') || randomBytes(32).toString('base64url');
  checkPasswordStrength(password);
  const userMetadata = optObject(body, 'user_metadata') ?? {};
  const appMetadata = mergeMetadata({ provider: 'email', providers: ['email'] }, optObject(body, 'app_metadata') ?? {});
  const confirm = optBoolean(body, 'email_confirm');
  const ban = banMillis(body);
  const role = optString(body, 'role') || 'authenticated';
  const hash = await hashPassword(password);
  let created: UserRow;
  try {
    created = await ctx.engine.transaction(async (tx) => {
      if (await emailTaken(tx, email)) throw emailExists();
      const r = await tx.query<UserRow>(
        `insert into auth.users (id, instance_id, aud, role, email, encrypted_password, email_confirmed_at,
                                 raw_app_meta_data, raw_user_meta_data, banned_until, created_at, updated_at)
         values (coalesce($1::uuid, gen_random_uuid()), '00000000-0000-0000-0000-000000000000', 'authenticated', $2, $3, $4,
                 case when $5::boolean then now() end, $6::jsonb, $7::jsonb,
                 ${banSql('$8', 'null')}, now(), now())
         returning ${USER_COLUMNS}`,
        [id ?? null, role, email, hash, confirm, JSON.stringify(appMetadata), JSON.stringify(userMetadata), ban ?? null],
      );
      // GoTrue's adminUserCreate writes the email identity too (not verified, whatever email_confirm says).
      await insertEmailIdentity(tx, r.rows[0]!.id, email);
      return (await findUserById(tx, r.rows[0]!.id))!;
    });
  } catch (e) {
    throw userWriteError(ctx, e, 'Database error creating new user', emailExists);
  }
  sendJson(res, 200, serializeUser(created));
}

/** GET /admin/users?page&per_page: newest first, with GoTrue's X-Total-Count and Link headers. */
export async function listUsers(ctx: ServerContext, _req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const page = parsePositive(url.searchParams.get('page'), 1, 'page');
  const perPage = Math.min(parsePositive(url.searchParams.get('per_page'), 50, 'per_page'), 1000);
  const total = await ctx.engine.query<{ n: number }>(`select count(*)::int as n from auth.users`);
  const count = total.rows[0]?.n ?? 0;
  const rows = await ctx.engine.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users order by created_at desc, id limit $1 offset $2`,
    [perPage, (page - 1) * perPage],
  );
  const lastPage = Math.max(1, Math.ceil(count / perPage));
  // auth-js reads the page number right after "page=", so page must come first (as Go's sorted query does).
  const link = (p: number) => `</auth/v1/admin/users?page=${p}&per_page=${perPage}>`;
  const links = [...(page < lastPage ? [`${link(page + 1)}; rel="next"`] : []), `${link(lastPage)}; rel="last"`];
  sendJson(
    res,
    200,
    { users: rows.rows.map(serializeUser), aud: 'authenticated' },
    {
      'X-Total-Count': String(count),
      Link: links.join(', '),
      'Access-Control-Expose-Headers': 'x-total-count, link, content-length, content-type',
    },
  );
}

function parsePositive(value: string | null, fallback: number, name: string): number {
  if (value === null || value === '') return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    throw badRequest('validation_failed', `Bad Pagination Parameters: ${name} must be a positive integer`);
  }
  return Number(value);
}

/** GET /admin/users/:id */
export async function getUserById(ctx: ServerContext, _req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
  sendJson(res, 200, serializeUser(await loadUser(ctx, id)));
}

/** PUT /admin/users/:id: password, email, email_confirm, user_metadata, app_metadata (merged), ban_duration. */
export async function updateUserById(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
  const user = await loadUser(ctx, id);
  const body = await readAuthBody(req);
  const rawEmail = optString(body, 'email');
  const email = rawEmail ? normalizeEmail(rawEmail) : null;
  const password = optString(body, 'password');
  if (password !== undefined) checkPasswordStrength(password);
  const userMetadata = optObject(body, 'user_metadata');
  const appMetadata = optObject(body, 'app_metadata');
  const confirm = optBoolean(body, 'email_confirm');
  const ban = banMillis(body);
  const role = optString(body, 'role') || null;
  const hash = password !== undefined ? await hashPassword(password) : null;
  let updated: UserRow;
  try {
    updated = await ctx.engine.transaction(async (tx) => {
      const current = await tx.query<{ raw_user_meta_data: Record<string, unknown> | null; raw_app_meta_data: Record<string, unknown> | null }>(
        `select raw_user_meta_data, raw_app_meta_data from auth.users where id = $1 for update`,
        [user.id],
      );
      const row = current.rows[0];
      if (!row) throw notFound('user_not_found', 'User not found');
      if (email && (await emailTaken(tx, email, user.id))) throw emailExists();
      const r = await tx.query<UserRow>(
        `update auth.users
            set encrypted_password = coalesce($2, encrypted_password),
                email = coalesce($3, email),
                email_confirmed_at = case when $4::boolean then coalesce(email_confirmed_at, now()) else email_confirmed_at end,
                raw_user_meta_data = coalesce($5::jsonb, raw_user_meta_data),
                raw_app_meta_data = coalesce($6::jsonb, raw_app_meta_data),
                banned_until = ${banSql('$7', 'banned_until')},
                role = coalesce($8, role),
                updated_at = now()
          where id = $1
          returning ${USER_COLUMNS}`,
        [
          user.id,
          hash,
          email,
          confirm,
          userMetadata ? JSON.stringify(mergeMetadata(row.raw_user_meta_data, userMetadata)) : null,
          appMetadata ? JSON.stringify(mergeMetadata(row.raw_app_meta_data, appMetadata)) : null,
          ban ?? null,
          role,
        ],
      );
      // An admin password reset signs the user out everywhere (GoTrue's UpdatePassword without a session).
      if (hash) await tx.query(`delete from auth.sessions where user_id = $1`, [user.id]);
      if (!email) return r.rows[0]!;
      // GoTrue's adminUserUpdate: the email identity takes the address, verified as email_confirm says.
      await updateEmailIdentity(tx, user.id, email, confirm);
      return (await findUserById(tx, user.id))!;
    });
  } catch (e) {
    throw userWriteError(ctx, e, 'Error updating user', emailExists);
  }
  sendJson(res, 200, serializeUser(updated));
}

/** DELETE /admin/users/:id: a hard delete; sessions and refresh tokens go with it (foreign keys cascade). */
export async function deleteUserById(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
  const user = await loadUser(ctx, id);
  const body = await readAuthBody(req);
  if (body.should_soft_delete === true) {
    throw badRequest('validation_failed', 'Soft deletion is not supported by local-supabase');
  }
  try {
    await ctx.engine.transaction((tx) => tx.query(`delete from auth.users where id = $1`, [user.id]));
  } catch (e) {
    throw userWriteError(ctx, e, 'Database error deleting user', () => internal('Database error deleting user'));
  }
  sendJson(res, 200, {});
}

/** GET /admin/users/:id/factors: the user's factors as GoTrue lists them (no secrets). */
export async function listUserFactors(ctx: ServerContext, _req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
  sendJson(res, 200, (await loadUser(ctx, id)).factors);
}

/** The user's factor `factorId` as listed, or GoTrue's loadFactor 404s. */
async function loadUserFactor(ctx: ServerContext, id: string, factorId: string): Promise<{ user: UserRow; factor: Record<string, unknown> }> {
  const user = await loadUser(ctx, id);
  if (!isUuid(factorId)) throw notFound('validation_failed', 'factor_id must be an UUID');
  const factor = user.factors.find((f) => f.id === factorId);
  if (!factor) throw notFound('mfa_factor_not_found', 'Factor not found');
  return { user, factor };
}

/** DELETE /admin/users/:id/factors/:factor_id: the factor goes, its sessions fall back to aal1; answers the factor. */
export async function deleteUserFactor(ctx: ServerContext, _req: IncomingMessage, res: ServerResponse, id: string, factorId: string): Promise<void> {
  const { user, factor } = await loadUserFactor(ctx, id, factorId);
  await ctx.engine.transaction((tx) => removeFactor(tx, user.id, factorId));
  sendJson(res, 200, factor);
}

/** PUT /admin/users/:id/factors/:factor_id {friendly_name}: renames the factor; answers it. */
export async function updateUserFactor(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, id: string, factorId: string): Promise<void> {
  const { user } = await loadUserFactor(ctx, id, factorId);
  const body = await readAuthBody(req);
  const friendlyName = optString(body, 'friendly_name');
  if (friendlyName) {
    await ctx.engine.query(`update auth.mfa_factors set friendly_name = $3, updated_at = now() where id = $1 and user_id = $2`, [
      factorId,
      user.id,
      friendlyName,
    ]);
  }
  const { factor } = await loadUserFactor(ctx, id, factorId);
  sendJson(res, 200, factor);
}

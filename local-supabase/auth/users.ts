// auth.users rows: reading them (every value a bound parameter) and serialising them as GoTrue does.
import type { Sql } from '../db/engine.ts';

/** Timestamps as RFC 3339 UTC text from SQL itself, so PGlite and node-postgres give the same strings. */
const iso = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as ${col}`;

export const USER_COLUMNS = [
  'id::text as id',
  'aud',
  'role',
  'email',
  'encrypted_password',
  'phone',
  'raw_app_meta_data',
  'raw_user_meta_data',
  'is_anonymous',
  iso('email_confirmed_at'),
  iso('invited_at'),
  iso('phone_confirmed_at'),
  iso('confirmed_at'),
  iso('confirmation_sent_at'),
  iso('recovery_sent_at'),
  "coalesce(email_change, '') as email_change",
  iso('email_change_sent_at'),
  iso('last_sign_in_at'),
  iso('banned_until'),
  iso('created_at'),
  iso('updated_at'),
  'coalesce(banned_until > now(), false) as banned',
  // The user's MFA factors as GoTrue lists them (no secrets). `users.id`: every query here reads or
  // writes auth.users unaliased.
  `(select coalesce(jsonb_agg(jsonb_build_object(
       'id', f.id, 'factor_type', f.factor_type, 'status', f.status,
       'created_at', to_char(f.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
       'updated_at', to_char(f.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
       'last_challenged_at', to_char(f.last_challenged_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
       'phone', coalesce(f.phone, ''))
       || case when coalesce(f.friendly_name, '') <> '' then jsonb_build_object('friendly_name', f.friendly_name) else '{}' end
       order by f.created_at), '[]'::jsonb)
     from auth.mfa_factors f where f.user_id = users.id) as factors`,
  // The user's sign-in identities as GoTrue lists them (models.Identity: the row id is identity_id,
  // the provider's id is id; omitempty fields left out).
  `(select coalesce(jsonb_agg(jsonb_build_object(
       'identity_id', i.id, 'id', i.provider_id, 'user_id', i.user_id, 'identity_data', i.identity_data, 'provider', i.provider,
       'created_at', to_char(i.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
       'updated_at', to_char(i.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))
       || case when i.last_sign_in_at is null then '{}' else jsonb_build_object('last_sign_in_at', to_char(i.last_sign_in_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')) end
       || case when i.email is null then '{}' else jsonb_build_object('email', i.email) end
       order by i.created_at, i.id), '[]'::jsonb)
     from auth.identities i where i.user_id = users.id) as identities`,
].join(', ');

export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  phone: string | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  is_anonymous: boolean;
  email_confirmed_at: string | null;
  invited_at: string | null;
  phone_confirmed_at: string | null;
  confirmed_at: string | null;
  confirmation_sent_at: string | null;
  recovery_sent_at: string | null;
  /** The address a pending e-mail change goes to ('' when none). */
  email_change: string;
  email_change_sent_at: string | null;
  last_sign_in_at: string | null;
  banned_until: string | null;
  created_at: string | null;
  updated_at: string | null;
  banned: boolean;
  factors: Record<string, unknown>[];
  identities: Record<string, unknown>[];
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID_PATTERN.test(v);

export async function findUserById(db: Sql, id: string): Promise<UserRow | null> {
  if (!isUuid(id)) return null;
  const r = await db.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1`, [id]);
  return r.rows[0] ?? null;
}

/** Emails are compared case-insensitively (the unique index is on lower(email)). */
export async function findUserByEmail(db: Sql, email: string): Promise<UserRow | null> {
  const r = await db.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users where lower(email) = lower($1) and is_sso_user = false
     order by created_at limit 1`,
    [email],
  );
  return r.rows[0] ?? null;
}

export async function emailTaken(db: Sql, email: string, exceptId: string | null = null): Promise<boolean> {
  const r = await db.query(
    `select 1 from auth.users where lower(email) = lower($1) and is_sso_user = false and ($2::uuid is null or id <> $2::uuid)`,
    [email, exceptId],
  );
  return r.rows.length > 0;
}

/** The user object of GoTrue's JSON (omitempty fields left out when unset). */
export function serializeUser(u: UserRow): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: u.id,
    aud: u.aud ?? '',
    role: u.role ?? '',
    email: u.email ?? '',
  };
  if (u.email_confirmed_at) out.email_confirmed_at = u.email_confirmed_at;
  if (u.invited_at) out.invited_at = u.invited_at;
  out.phone = u.phone ?? '';
  if (u.phone_confirmed_at) out.phone_confirmed_at = u.phone_confirmed_at;
  if (u.confirmation_sent_at) out.confirmation_sent_at = u.confirmation_sent_at;
  if (u.confirmed_at) out.confirmed_at = u.confirmed_at;
  if (u.email_change) out.new_email = u.email_change;
  if (u.recovery_sent_at) out.recovery_sent_at = u.recovery_sent_at;
  if (u.email_change_sent_at) out.email_change_sent_at = u.email_change_sent_at;
  if (u.last_sign_in_at) out.last_sign_in_at = u.last_sign_in_at;
  out.app_metadata = u.raw_app_meta_data ?? {};
  out.user_metadata = u.raw_user_meta_data ?? {};
  out.identities = u.identities ?? [];
  if (u.factors?.length) out.factors = u.factors; // omitempty, as in GoTrue
  if (u.banned_until) out.banned_until = u.banned_until;
  out.created_at = u.created_at;
  out.updated_at = u.updated_at;
  out.is_anonymous = u.is_anonymous;
  return out;
}

/** GoTrue's metadata merge: top-level keys replace, a null value removes the key. */
export function mergeMetadata(current: Record<string, unknown> | null, update: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...(current ?? {}) };
  for (const [k, v] of Object.entries(update)) {
    if (v === null) delete merged[k];
    else merged[k] = v;
  }
  return merged;
}

export interface NewEmailUser {
  email: string;
  /** A bcrypt hash, or '' for an account without a password (invited, or made by an e-mailed code). */
  passwordHash: string;
  data: Record<string, unknown>;
  confirmed: boolean;
  /** The digest of the confirmation token (links.ts), or '' when none is pending. */
  confirmationDigest: string;
  invited: boolean;
}

/**
 * The `email` identity GoTrue writes beside a new e-mail account (createNewIdentity with the claims
 * sub, email, email_verified, phone_verified), its provider id being the user's id. `extra` (a
 * sign-up's metadata) fills keys the claims leave free, as in GoTrue's Signup.
 */
export async function insertEmailIdentity(
  tx: Sql,
  userId: string,
  email: string,
  { verified = false, extra = {} }: { verified?: boolean; extra?: Record<string, unknown> } = {},
): Promise<void> {
  const data = { ...extra, sub: userId, email: email.toLowerCase(), email_verified: verified, phone_verified: false };
  await tx.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
     values ($1, $2, $3::jsonb, 'email', now(), now(), now())`,
    [userId, userId, JSON.stringify(data)],
  );
}

/**
 * The user's `email` identity once their address changed or was confirmed: its email and
 * email_verified updated, or created for an account without one (an anonymous one), as GoTrue's
 * signup and e-mail change verification and its admin update do.
 */
export async function updateEmailIdentity(tx: Sql, userId: string, email: string, verified: boolean): Promise<void> {
  const r = await tx.query(
    `update auth.identities set identity_data = identity_data || jsonb_build_object('email', lower($2::text), 'email_verified', $3::boolean), updated_at = now()
      where provider_id = $1 and provider = 'email' returning id`,
    [userId, email, verified],
  );
  if (!r.rows.length) await insertEmailIdentity(tx, userId, email, { verified });
}

/** The identities carrying the user's address are verified: its owner opened the link sent there. */
export async function markEmailIdentityVerified(tx: Sql, userId: string): Promise<void> {
  await tx.query(
    `update auth.identities i set identity_data = i.identity_data || '{"email_verified": true}'::jsonb, updated_at = now()
       from auth.users u where u.id = $1 and i.user_id = u.id and i.email = lower(u.email)`,
    [userId],
  );
}

/**
 * Inserts an e-mail account as GoTrue's signupNewUser does (a plain insert, so triggers on auth.users
 * fire) with its e-mail identity, inside the caller's transaction, and reads it back after the triggers.
 */
export async function insertEmailUser(tx: Sql, u: NewEmailUser): Promise<UserRow> {
  const ins = await tx.query<{ id: string }>(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, invited_at,
                             confirmation_token, confirmation_sent_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1, $2,
             case when $3::boolean then now() end, case when $4::boolean then now() end,
             $5::text, case when $5::text <> '' then now() end, $6::jsonb, $7::jsonb, now(), now())
     returning id::text as id`,
    [u.email, u.passwordHash, u.confirmed, u.invited, u.confirmationDigest, JSON.stringify({ provider: 'email', providers: ['email'] }), JSON.stringify(u.data)],
  );
  await insertEmailIdentity(tx, ins.rows[0]!.id, u.email);
  return (await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1`, [ins.rows[0]!.id])).rows[0]!;
}

// The service-role client and the caller check. Every function verifies who calls it before it
// touches the service-role client for anything else.
import { createClient, type SupabaseClient, type User } from 'npm:@supabase/supabase-js@2.109.0';
import { HttpError } from './http.ts';

export type AppRole = 'SUPER_ADMIN' | 'SCHOOL_ADMIN' | 'INSTRUCTOR' | 'STAFF';
export const STAFF_ROLES: readonly AppRole[] = ['SCHOOL_ADMIN', 'INSTRUCTOR', 'STAFF'];

export function env(name: string): string {
  const value = Deno.env.get(name);
  if (!value) throw new Error(`missing environment variable ${name}`);
  return value;
}

/**
 * Who a service-role client's writes are recorded as in the audit log (issue 44, docs/privacy.md): the
 * function's name and, for a staff action, the account the function verified. The database believes
 * these two headers from the service role only.
 */
export interface AuditAs {
  source: string;
  actorId?: string;
}

/** Service-role client: bypasses RLS. Never hand it data the caller was not checked for. */
export function serviceClient(audit?: AuditAs): SupabaseClient {
  const headers: Record<string, string> = {};
  if (audit) headers['x-audit-source'] = audit.source;
  if (audit?.actorId) headers['x-audit-actor'] = audit.actorId;
  return createClient(env('SUPABASE_URL'), env('SUPABASE_SERVICE_ROLE_KEY'), {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers },
  });
}

export interface Caller {
  user: User;
  schoolId: string | null;
  isActive: boolean;
  roles: { role: AppRole; school_id: string | null }[];
  isSuperAdmin: boolean;
  /** SUPER_ADMIN, or a staff role at this school. */
  isStaffOf(schoolId: string | null | undefined): boolean;
}

/** The signed-in, active caller from the Authorization header, or HttpError 401/403. */
export async function requireCaller(req: Request, admin: SupabaseClient): Promise<Caller> {
  const token = (req.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, '');
  if (!token) throw new HttpError(401, 'Não autenticado');
  const { data, error } = await admin.auth.getUser(token);
  if (error || !data.user) throw new HttpError(401, 'Não autenticado');
  const user = data.user;
  const [{ data: profile }, { data: roles }] = await Promise.all([
    admin.from('profiles').select('school_id, is_active, must_change_password').eq('id', user.id).maybeSingle(),
    admin.from('user_roles').select('role, school_id, school:schools(require_staff_mfa)').eq('user_id', user.id),
  ]);
  if (!profile || !profile.is_active) throw new HttpError(403, 'Sua conta está inativa. Entre em contato com o administrador.');
  // An initial or reset password may be known to others: until it is changed the account does nothing
  // (the database refuses it everything but its own profile the same way).
  if (profile.must_change_password) throw new HttpError(403, 'Troque sua senha antes de continuar.');
  // Two-factor sign-in (issue 19), as private.is_school_staff decides in the database: a role counts
  // only from a session that gave its code (aal2) when the account has a verified factor or the role's
  // school requires one. getUser above checked the token, so its claims can be read.
  const aal2 = tokenClaims(token).aal === 'aal2';
  const hasFactor = (user.factors ?? []).some((f) => f.status === 'verified');
  const list = ((roles ?? []) as unknown as (Caller['roles'][number] & { school: { require_staff_mfa: boolean } | null })[])
    .filter((r) => aal2 || !(hasFactor || r.school?.require_staff_mfa))
    .map(({ role, school_id }) => ({ role, school_id }));
  const isSuperAdmin = list.some((r) => r.role === 'SUPER_ADMIN');
  return {
    user,
    schoolId: profile.school_id,
    isActive: profile.is_active,
    roles: list,
    isSuperAdmin,
    isStaffOf: (schoolId) =>
      isSuperAdmin || (!!schoolId && list.some((r) => r.school_id === schoolId && STAFF_ROLES.includes(r.role))),
  };
}

function tokenClaims(token: string): { aal?: string } {
  try {
    return JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { aal?: string };
  } catch {
    return {};
  }
}

/** Like requireCaller, and the caller must be staff of some school or super admin. */
export async function requireStaff(req: Request, admin: SupabaseClient): Promise<Caller> {
  const caller = await requireCaller(req, admin);
  if (!caller.isSuperAdmin && !caller.roles.some((r) => STAFF_ROLES.includes(r.role))) {
    throw new HttpError(403, 'Acesso negado');
  }
  return caller;
}

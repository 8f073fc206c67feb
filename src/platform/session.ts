// The signed-in user's session and school context, shared by every feature. The provider lives in
// src/app (SessionProvider); features read it with useSession() and reuse the query factories below.
import { createContext, useContext } from 'react';
import { queryOptions } from '@tanstack/react-query';
import type { AuthChangeEvent, Session, User } from '@supabase/supabase-js';
import type { Tables } from '@/types/database';
import { loadSupabase } from './api-config';
import { PROFILE_WITH_SCHOOL_SELECT, ROLES_SELECT } from './session-urls';

export type AppRole = Tables<'user_roles'>['role'];
export const ADMIN_ROLES: readonly AppRole[] = ['SUPER_ADMIN', 'SCHOOL_ADMIN', 'INSTRUCTOR', 'STAFF'];

// Rows of the generated schema types (npm run gen:types).
export type ProfileRow = Tables<'profiles'>;
export type SchoolRow = Tables<'schools'>;
export type UserRoleRow = Pick<Tables<'user_roles'>, 'user_id' | 'school_id'> & { role: AppRole };

/** Query keys of the session data (profile, roles, school). */
export const sessionKeys = {
  profile: (userId: string) => ['profiles', 'detail', userId] as const,
  roles: (userId: string) => ['user_roles', 'by-user', userId] as const,
  school: (schoolId: string) => ['schools', 'detail', schoolId] as const,
  schoolBySlug: (slug: string) => ['schools', 'by-slug', slug] as const,
};

type ProfileWithSchool = ProfileRow & { school: SchoolRow | null };

/** The profile with its school embedded: the school (branding, the home's banner) comes in the same
 * request instead of one more round trip after the profile's. */
export async function fetchProfileWithSchool(
  userId: string,
): Promise<{ profile: ProfileRow; school: SchoolRow | null } | null> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.from('profiles').select(PROFILE_WITH_SCHOOL_SELECT).eq('id', userId).maybeSingle<ProfileWithSchool>();
  if (error) throw error;
  if (!data) return null;
  const { school, ...profile } = data;
  return { profile, school };
}

export async function fetchRoles(userId: string): Promise<UserRoleRow[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.from('user_roles').select(ROLES_SELECT).eq('user_id', userId);
  if (error) throw error;
  return (data ?? []) as UserRoleRow[];
}

export async function fetchSchool(schoolId: string): Promise<SchoolRow | null> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.from('schools').select('*').eq('id', schoolId).maybeSingle();
  if (error) throw error;
  return data;
}

export const profileQuery = (userId: string) =>
  queryOptions({
    queryKey: sessionKeys.profile(userId),
    queryFn: async ({ client }) => {
      const found = await fetchProfileWithSchool(userId);
      // Fresh for schoolQuery's staleTime, so the session provider asks for the school no more.
      if (found?.school) client.setQueryData(sessionKeys.school(found.school.id), found.school);
      return found?.profile ?? null;
    },
  });
export const rolesQuery = (userId: string) => queryOptions({ queryKey: sessionKeys.roles(userId), queryFn: () => fetchRoles(userId) });
export const schoolQuery = (schoolId: string) =>
  queryOptions({ queryKey: sessionKeys.school(schoolId), queryFn: () => fetchSchool(schoolId), staleTime: 5 * 60_000 });

export function hasAdminRole(roles: readonly UserRoleRow[] | undefined): boolean {
  return (roles ?? []).some((r) => ADMIN_ROLES.includes(r.role));
}

export interface SessionContextValue {
  session: Session | null;
  user: User | null;
  profile: ProfileRow | null;
  roles: UserRoleRow[];
  school: SchoolRow | null;
  isAdmin: boolean;
  /** True while the session, the profile or the roles are still unknown. */
  loading: boolean;
  /** True until supabase-js reported the initial session. */
  initializing: boolean;
  /** The profile query answered and there is no profile row for the user. */
  profileMissing: boolean;
  /** The user must set a new password (profile flag or user metadata). */
  mustChangePassword: boolean;
  /** The account has two-factor sign-in on and this session has not given the code (aal1): not complete. */
  needsSecondFactor: boolean;
  /** A staff account of a school that requires two-factor sign-in, without it set up yet. */
  secondFactorSetupRequired: boolean;
  /** The session was opened by a password recovery link and the new password is not set yet. */
  passwordRecovery: boolean;
  /** The new password is set: the recovery session becomes an ordinary one. */
  endPasswordRecovery: () => void;
  /** A sign-in/sign-up flow is checking the account; guards must not redirect meanwhile. */
  authFlowPending: boolean;
  setAuthFlowPending: (pending: boolean) => void;
  /** Signs out, clears cached data and returns the path to go to (/{slug} or /auth). */
  signOut: () => Promise<string>;
  /** After a sign-out in this tab: where the guards send the signed-out user (else /auth). */
  signOutTarget: string | null;
}

export const SessionContext = createContext<SessionContextValue | null>(null);

export function useSession(): SessionContextValue {
  const ctx = useContext(SessionContext);
  if (!ctx) throw new Error('useSession must be used inside <SessionProvider>');
  return ctx;
}

const SLUG_KEY = 'plataforma:school-slug';

/** The last school login page used on this device (for the sign-out destination). */
export function rememberSchoolSlug(slug: string): void {
  try {
    localStorage.setItem(SLUG_KEY, slug);
  } catch {
    /* storage unavailable */
  }
}

export function rememberedSchoolSlug(): string | null {
  try {
    return localStorage.getItem(SLUG_KEY);
  } catch {
    return null;
  }
}

/** Where a signed-out user goes: the school's login page, or /auth when no school is known. */
export function signOutDestination(schoolSlug: string | null | undefined): string {
  const slug = schoolSlug || rememberedSchoolSlug();
  return slug ? `/${slug}` : '/auth';
}

/** Calls `onEvent` on each auth event of supabase-js (loaded first); resolves to the unsubscribe. */
export async function listenToAuth(onEvent: (event: AuthChangeEvent, session: Session | null) => void): Promise<() => void> {
  const { data } = (await loadSupabase()).auth.onAuthStateChange(onEvent);
  return () => data.subscription.unsubscribe();
}

export async function signOutOfSupabase(): Promise<void> {
  await (await loadSupabase()).auth.signOut();
}

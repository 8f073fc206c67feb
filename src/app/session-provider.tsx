import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Session } from '@supabase/supabase-js';
import { supabase } from '@/lib/supabase';
import { toast } from '@/lib/toast';
import { applyBrandColors } from '@/lib/brand';
import {
  SessionContext,
  hasAdminRole,
  profileQuery,
  rolesQuery,
  schoolQuery,
  signOutDestination,
  type SessionContextValue,
} from '@/lib/session';

/** Listens to supabase auth (initial session, sign-in/out, token refresh, user updates) and loads
 * the user's profile, roles and school with TanStack Query. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [session, setSession] = useState<Session | null>(null);
  const [initializing, setInitializing] = useState(true);
  const [authFlowPending, setAuthFlowPending] = useState(false);
  const [signOutTarget, setSignOutTarget] = useState<string | null>(null);

  useEffect(() => {
    const { data } = supabase.auth.onAuthStateChange((event, next) => {
      // Keep this callback synchronous: supabase-js holds its auth lock while it runs.
      setSession(next);
      setInitializing(false);
      if (event === 'SIGNED_OUT') queryClient.clear();
      if (event === 'SIGNED_IN') setSignOutTarget(null);
    });
    return () => data.subscription.unsubscribe();
  }, [queryClient]);

  const user = session?.user ?? null;
  const userId = user?.id;

  // Re-read every minute and when the tab regains focus: a staff member may deactivate the account
  // while this session is open (the database already refuses it everything; this tells the person).
  const profileQ = useQuery({ ...profileQuery(userId ?? ''), enabled: !!userId, refetchInterval: 60_000, refetchOnWindowFocus: true });
  const rolesQ = useQuery({ ...rolesQuery(userId ?? ''), enabled: !!userId });
  const profile = userId ? (profileQ.data ?? null) : null;
  const schoolId = profile?.school_id ?? null;
  const schoolQ = useQuery({ ...schoolQuery(schoolId ?? ''), enabled: !!schoolId });
  const school = schoolId ? (schoolQ.data ?? null) : null;

  useEffect(() => {
    if (school) applyBrandColors(school.primary_color, school.secondary_color);
  }, [school]);

  const signOut = useCallback(async () => {
    const destination = signOutDestination(school?.slug);
    // Set first: the guards send the now signed-out page there, whichever navigation runs first.
    setSignOutTarget(destination);
    await supabase.auth.signOut();
    queryClient.clear();
    return destination;
  }, [queryClient, school?.slug]);

  const deactivated = !!profile && !profile.is_active && !authFlowPending;
  useEffect(() => {
    if (!deactivated) return;
    const timer = setTimeout(() => {
      toast.error('Sua conta está inativa. Entre em contato com o administrador.');
      void signOut();
    }, 0);
    return () => clearTimeout(timer);
  }, [deactivated, signOut]);

  const value = useMemo<SessionContextValue>(() => {
    const roles = userId ? (rolesQ.data ?? []) : [];
    const metaFlag = user?.user_metadata?.must_change_password === true;
    return {
      session,
      user,
      profile,
      roles,
      school,
      isAdmin: hasAdminRole(roles),
      initializing,
      loading: initializing || (!!userId && (profileQ.isPending || rolesQ.isPending)),
      profileMissing: !!userId && profileQ.isSuccess && profileQ.data === null,
      mustChangePassword: !!user && (profile?.must_change_password === true || metaFlag),
      authFlowPending,
      setAuthFlowPending,
      signOut,
      signOutTarget,
    };
  }, [signOutTarget, session, user, userId, profile, rolesQ.data, rolesQ.isPending, school, initializing, profileQ.isPending, profileQ.isSuccess, profileQ.data, authFlowPending, signOut]);

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

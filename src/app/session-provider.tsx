import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AuthChangeEvent, Session } from '@supabase/supabase-js';
import { hasVerifiedFactor, needsSecondFactor } from '@/features/mfa/assurance';
import { takeRecoveryLanding } from '@/platform/auth-link';
import { mayHaveSession } from '@/platform/api-config';
import { forgetLcpFrames, whenPageSettled } from '@/platform/first-visit';
import { toast } from '@/platform/toast';
import { applyBrandColors } from '@/concepts/brand';
import {
  SessionContext,
  hasAdminRole,
  listenToAuth,
  profileQuery,
  rolesQuery,
  schoolQuery,
  signOutDestination,
  signOutOfSupabase,
  type SessionContextValue,
} from '@/platform/session';

const RECOVERY_KEY = 'plataforma:recovery-session';

/** The session_id claim of the access token: it stays the same across token refreshes. */
function sessionIdOf(session: Session | null): string | null {
  try {
    const payload = session?.access_token.split('.')[1];
    return payload ? ((JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { session_id?: string }).session_id ?? null) : null;
  } catch {
    return null;
  }
}

/** The recovery session of this tab, kept across a reload until the new password is set. */
function storeRecoverySession(id: string | null): void {
  try {
    if (id) sessionStorage.setItem(RECOVERY_KEY, id);
    else sessionStorage.removeItem(RECOVERY_KEY);
  } catch {
    /* storage unavailable: the form still shows until a reload */
  }
}
function storedRecoverySession(): string | null {
  try {
    return sessionStorage.getItem(RECOVERY_KEY);
  } catch {
    return null;
  }
}

/** Listens to supabase auth (initial session, sign-in/out, token refresh, user updates) and loads
 * the user's profile, roles and school with TanStack Query. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [session, setSession] = useState<Session | null>(null);
  // Decided once: no stored session and no auth link in the URL means signed out from the start.
  const [startSignedOut] = useState(() => !mayHaveSession());
  const [initializing, setInitializing] = useState(!startSignedOut);
  const [authFlowPending, setAuthFlowPending] = useState(false);
  const [signOutTarget, setSignOutTarget] = useState<string | null>(null);
  const [recoverySessionId, setRecoverySessionId] = useState(storedRecoverySession);

  useEffect(() => {
    let unsubscribe: (() => void) | null = null;
    let cancelled = false;
    // A signed-out visitor's page paints at once, without supabase-js; it loads once the page has
    // settled (the sign-in form and the auth listener need it; submitting the form loads it at once).
    // With a stored session, or a link's tokens in the URL, the session decides what to show: wait for it.
    const listen = () =>
      listenToAuth(onAuthEvent).then((stop) => {
        if (cancelled) stop();
        else unsubscribe = stop;
      });
    const onAuthEvent = (event: AuthChangeEvent, next: Session | null) => {
      // Keep this callback synchronous: supabase-js holds its auth lock while it runs.
      setSession(next);
      setInitializing(false);
      if (event === 'SIGNED_OUT') queryClient.clear();
      if (event === 'SIGNED_IN') setSignOutTarget(null);
      // A recovery link's session. supabase-js may report it as the initial session before its
      // PASSWORD_RECOVERY event, so the fragment read at load (auth-link.ts) recognises it too.
      if (next && (event === 'PASSWORD_RECOVERY' || (event === 'INITIAL_SESSION' && takeRecoveryLanding(next.access_token)))) {
        const id = sessionIdOf(next);
        setRecoverySessionId(id);
        storeRecoverySession(id);
      }
      if (event === 'SIGNED_OUT') {
        setRecoverySessionId(null);
        storeRecoverySession(null);
        forgetLcpFrames();
      }
    };
    const cancelWait = startSignedOut ? whenPageSettled(() => void listen()) : (void listen(), () => undefined);
    return () => {
      cancelled = true;
      cancelWait();
      unsubscribe?.();
    };
  }, [queryClient, startSignedOut]);

  const user = session?.user ?? null;
  const userId = user?.id;
  const sessionId = useMemo(() => sessionIdOf(session), [session]);
  const passwordRecovery = !!recoverySessionId && recoverySessionId === sessionId;
  const endPasswordRecovery = useCallback(() => {
    setRecoverySessionId(null);
    storeRecoverySession(null);
  }, []);

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
    await signOutOfSupabase();
    queryClient.clear();
    return destination;
  }, [queryClient, school?.slug]);

  const deactivated = !!profile && !profile.is_active && !authFlowPending;
  useEffect(() => {
    if (!deactivated) return;
    // SPEC §8: a deactivated account is told why it is signed out (no request failed: not the mutation error path).
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
      needsSecondFactor: needsSecondFactor(session),
      secondFactorSetupRequired: hasAdminRole(roles) && school?.require_staff_mfa === true && !hasVerifiedFactor(user),
      passwordRecovery,
      endPasswordRecovery,
      authFlowPending,
      setAuthFlowPending,
      signOut,
      signOutTarget,
    };
  }, [signOutTarget, session, user, userId, profile, rolesQ.data, rolesQ.isPending, school, initializing, profileQ.isPending, profileQ.isSuccess, profileQ.data, passwordRecovery, endPasswordRecovery, authFlowPending, signOut]);

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

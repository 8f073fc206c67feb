// Route guards of SPEC §2: spinner while the session loads; signed-out visitors of protected routes
// go to /auth; signed-in visitors of /auth and /:slug go to /; /admin only for admin roles. A session
// that still owes its two-factor code counts as signed in only on the login page.
import { lazy, Suspense, useEffect, useRef } from 'react';
import { Navigate, Outlet } from 'react-router-dom';
import { PageSpinner } from '@/components/ui/spinner';
import { useSession } from '@/platform/session';
import { useSignOutAndLeave } from './layout/use-sign-out';

/** Signs out accounts that may not use the member area (inactive or without a profile). */
function RefuseAccount() {
  const leave = useSignOutAndLeave();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void leave();
  }, [leave]);
  return <PageSpinner />;
}

/** Member area: signed-in users with an active profile. */
export function RequireAuth() {
  const { loading, user, profile, profileMissing, mustChangePassword, needsSecondFactor, school, signOutTarget } = useSession();
  if (loading) return <PageSpinner />;
  // After a sign-out in this tab, the school's login page; otherwise /auth.
  if (!user) return <Navigate to={signOutTarget ?? '/auth'} replace />;
  if (profileMissing || (profile && !profile.is_active)) return <RefuseAccount />;
  // The forced password change and the two-factor code happen on the school's login page (wait for
  // the school to know it). A session without the code of its account's second factor is not complete.
  const unfinished = mustChangePassword || needsSecondFactor;
  if (unfinished && !school && profile?.school_id) return <PageSpinner />;
  if (unfinished) return <Navigate to={school?.slug ? `/${school.slug}` : '/auth'} replace />;
  return <Outlet />;
}

// A staff account of a school that requires two-factor sign-in sets it up before the admin area.
const SecondFactorSetupRequired = lazy(() => import('@/features/mfa/components/setup-required').then((m) => ({ default: m.SecondFactorSetupRequired })));

/** Admin area: RequireAuth plus an admin role; others go to /. */
export function RequireAdmin() {
  const { loading, isAdmin, secondFactorSetupRequired } = useSession();
  if (loading) return <PageSpinner />;
  if (!isAdmin) return <Navigate to="/" replace />;
  if (secondFactorSetupRequired) {
    return (
      <Suspense fallback={<PageSpinner />}>
        <SecondFactorSetupRequired />
      </Suspense>
    );
  }
  return <Outlet />;
}

/** /auth and /:slug: signed-in users go to /, except while the login flow checks the account or
 * while a forced password change or a password recovery is pending (the login page shows that form). */
export function RedirectIfSignedIn() {
  const { initializing, loading, user, profile, profileMissing, mustChangePassword, needsSecondFactor, passwordRecovery, authFlowPending } = useSession();
  if (initializing) return <PageSpinner />;
  if (!user || authFlowPending) return <Outlet />;
  if (loading) return <PageSpinner />;
  if (profileMissing || (profile && !profile.is_active)) {
    return (
      <>
        <SignOutSilently />
        <Outlet />
      </>
    );
  }
  if (!mustChangePassword && !passwordRecovery && !needsSecondFactor) return <Navigate to="/" replace />;
  return <Outlet />;
}

/** A restored session of a refused account on the login page: end it without leaving the page. */
function SignOutSilently() {
  const { signOut } = useSession();
  useEffect(() => {
    void signOut();
  }, [signOut]);
  return null;
}

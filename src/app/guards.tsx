// Route guards of SPEC §2: spinner while the session loads; signed-out visitors of protected routes
// go to /auth; signed-in visitors of /auth and /:slug go to /; /admin only for admin roles.
import { useEffect, useRef } from 'react';
import { Navigate, Outlet } from 'react-router-dom';
import { PageSpinner } from '@/components/ui/spinner';
import { useSession } from '@/lib/session';
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
  const { loading, user, profile, profileMissing, mustChangePassword, school, signOutTarget } = useSession();
  if (loading) return <PageSpinner />;
  // After a sign-out in this tab, the school's login page; otherwise /auth.
  if (!user) return <Navigate to={signOutTarget ?? '/auth'} replace />;
  if (profileMissing || (profile && !profile.is_active)) return <RefuseAccount />;
  // The forced password change happens on the school's login page (wait for the school to know it).
  if (mustChangePassword && !school && profile?.school_id) return <PageSpinner />;
  if (mustChangePassword) return <Navigate to={school?.slug ? `/${school.slug}` : '/auth'} replace />;
  return <Outlet />;
}

/** Admin area: RequireAuth plus an admin role; others go to /. */
export function RequireAdmin() {
  const { loading, isAdmin } = useSession();
  if (loading) return <PageSpinner />;
  if (!isAdmin) return <Navigate to="/" replace />;
  return <Outlet />;
}

/** /auth and /:slug: signed-in users go to /, except while the login flow checks the account or
 * while a forced password change or a password recovery is pending (the login page shows that form). */
export function RedirectIfSignedIn() {
  const { initializing, loading, user, profile, profileMissing, mustChangePassword, passwordRecovery, authFlowPending } = useSession();
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
  if (!mustChangePassword && !passwordRecovery) return <Navigate to="/" replace />;
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

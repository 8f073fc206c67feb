// Route guards of SPEC §2: spinner while the session loads; signed-out visitors of protected routes
// go to /auth; signed-in visitors of /auth and /:slug go to /; /admin only for admin roles.
import { useEffect } from 'react';
import { Navigate, Outlet, useNavigate } from 'react-router-dom';
import { PageSpinner } from '@/components/ui/spinner';
import { useSession } from '@/lib/session';

/** Signs out accounts that may not use the member area (inactive or without a profile). */
function RefuseAccount() {
  const { signOut } = useSession();
  const navigate = useNavigate();
  useEffect(() => {
    let cancelled = false;
    void signOut().then((to) => {
      if (!cancelled) navigate(to, { replace: true });
    });
    return () => {
      cancelled = true;
    };
  }, [signOut, navigate]);
  return <PageSpinner />;
}

/** Member area: signed-in users with an active profile. */
export function RequireAuth() {
  const { loading, user, profile, profileMissing, mustChangePassword, school } = useSession();
  if (loading) return <PageSpinner />;
  if (!user) return <Navigate to="/auth" replace />;
  if (profileMissing || (profile && !profile.is_active)) return <RefuseAccount />;
  // The forced password change happens on the login page.
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
 * while a forced password change is pending (the login page shows that dialog). */
export function RedirectIfSignedIn() {
  const { initializing, loading, user, profile, profileMissing, mustChangePassword, authFlowPending } = useSession();
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
  if (!mustChangePassword) return <Navigate to="/" replace />;
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

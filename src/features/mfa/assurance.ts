// Where a session stands on two-factor sign-in, read from the session itself (no request): the `aal`
// claim of its access token and the factors GoTrue lists on its user.
import type { Session, User } from '@supabase/supabase-js';

/** The `aal` claim of the access token: aal2 once the session verified a second factor. */
export function sessionAal(session: Session | null): string | null {
  try {
    const payload = session?.access_token.split('.')[1];
    if (!payload) return null;
    return (JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { aal?: string }).aal ?? null;
  } catch {
    return null;
  }
}

export const hasVerifiedFactor = (user: User | null | undefined): boolean => (user?.factors ?? []).some((f) => f.status === 'verified');

/** The account has two-factor on and this session has not given the code yet: it is not complete. */
export const needsSecondFactor = (session: Session | null): boolean =>
  !!session && hasVerifiedFactor(session.user) && sessionAal(session) !== 'aal2';

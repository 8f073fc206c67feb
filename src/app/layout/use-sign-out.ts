import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSession } from '@/platform/session';

/** Signs out and goes to the school's login page (or /auth). */
export function useSignOutAndLeave() {
  const { signOut } = useSession();
  const navigate = useNavigate();
  return useCallback(async () => {
    const to = await signOut();
    await navigate(to, { replace: true });
  }, [signOut, navigate]);
}

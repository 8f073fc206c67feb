// The admin pages of one school wrap their feature's page in this (the route composes it): the signed-in
// staff member's school from the session, or a note when the account has none.
import type { ReactNode } from 'react';
import { EmptyState } from '@/components/ui/empty-state';
import { AdminPage } from '@/components/ui/page-header';
import { PageSpinner } from '@/components/ui/spinner';
import { useSession, type SchoolRow } from '@/platform/session';

/** Renders `children` with the signed-in staff's school, or says why there is none. */
export function WithOwnSchool({ children }: { children: (school: SchoolRow) => ReactNode }) {
  const { school, profile, loading } = useSession();
  if (school) return <>{children(school)}</>;
  if (loading || profile?.school_id) return <PageSpinner />;
  return (
    <AdminPage>
      <EmptyState
        title="Sua conta não está ligada a uma escola"
        description="Estas configurações pertencem a uma escola; entre com a conta de um administrador da escola."
      />
    </AdminPage>
  );
}

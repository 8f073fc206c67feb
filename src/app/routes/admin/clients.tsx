import { Navigate } from 'react-router-dom';
import { ClientsPage } from '@/features/schools/components/clients-page';
import { useSession } from '@/platform/session';

// Super admin only (SPEC §6); other staff are sent to the dashboard.
export default function AdminClientsPage() {
  const { roles } = useSession();
  if (!roles.some((r) => r.role === 'SUPER_ADMIN')) return <Navigate to="/admin" replace />;
  return <ClientsPage />;
}

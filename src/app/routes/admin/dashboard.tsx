import { Dashboard } from '@/features/dashboard/components/dashboard';

export default function AdminDashboardPage() {
  return <Dashboard />;
}

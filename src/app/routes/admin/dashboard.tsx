import { PagePlaceholder } from '../placeholder';

// Placeholder: admin dashboard issue.
export default function AdminDashboardPage() {
  return <PagePlaceholder title="Dashboard" />;
}

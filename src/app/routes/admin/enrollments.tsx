import { PagePlaceholder } from '../placeholder';

// Placeholder: admin enrollments issue.
export default function AdminEnrollmentsPage() {
  return <PagePlaceholder title="Matrículas" />;
}

import { PagePlaceholder } from '../placeholder';

// Placeholder: admin reports issue.
export default function AdminReportsPage() {
  return <PagePlaceholder title="Relatórios" />;
}

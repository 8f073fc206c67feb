import { PagePlaceholder } from '../placeholder';

// Placeholder: admin clients issue.
export default function AdminClientsPage() {
  return <PagePlaceholder title="Clientes" />;
}

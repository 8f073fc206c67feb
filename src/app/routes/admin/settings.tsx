import { PagePlaceholder } from '../placeholder';

// Placeholder: admin settings issue.
export default function AdminSettingsPage() {
  return <PagePlaceholder title="Configurações" />;
}

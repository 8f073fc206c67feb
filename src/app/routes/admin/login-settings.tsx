import { PagePlaceholder } from '../placeholder';

// Placeholder: admin login settings issue.
export default function AdminLoginSettingsPage() {
  return <PagePlaceholder title="Tela de Login" />;
}

import { PagePlaceholder } from '../placeholder';

// Placeholder: admin materials issue.
export default function AdminMaterialsPage() {
  return <PagePlaceholder title="Materiais" />;
}

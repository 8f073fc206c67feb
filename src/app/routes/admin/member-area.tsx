import { PagePlaceholder } from '../placeholder';

// Placeholder: admin member-area issue.
export default function AdminMemberAreaPage() {
  return <PagePlaceholder title="Área de Membros" />;
}

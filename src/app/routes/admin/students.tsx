import { PagePlaceholder } from '../placeholder';

// Placeholder: admin students issue.
export default function AdminStudentsPage() {
  return <PagePlaceholder title="Alunos" />;
}

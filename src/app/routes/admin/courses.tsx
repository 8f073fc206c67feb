import { PagePlaceholder } from '../placeholder';

// Placeholder: admin courses issue.
export default function AdminCoursesPage() {
  return <PagePlaceholder title="Cursos" />;
}

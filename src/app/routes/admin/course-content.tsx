import { PagePlaceholder } from '../placeholder';

// Placeholder: admin course content issue.
export default function AdminCourseContentPage() {
  return <PagePlaceholder title="Conteúdo do Curso" />;
}

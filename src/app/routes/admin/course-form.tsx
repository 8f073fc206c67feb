import { useParams } from 'react-router-dom';
import { PagePlaceholder } from '../placeholder';

// Placeholder: admin course form issue (new and edit share this screen).
export default function AdminCourseFormPage() {
  const { courseId } = useParams();
  return <PagePlaceholder title={courseId ? 'Editar Curso' : 'Novo Curso'} />;
}

import { useParams } from 'react-router-dom';
import { ContentEditor } from '@/features/course-content/components/content-editor';

export default function AdminCourseContentPage() {
  const { courseId = '' } = useParams();
  return <ContentEditor key={courseId} courseId={courseId} />;
}

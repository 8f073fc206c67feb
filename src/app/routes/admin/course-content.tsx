import { useParams } from 'react-router-dom';
import { ContentEditor } from '@/features/course-content/components/content-editor';
import { LessonMaterials } from '@/features/materials/components/lesson-materials';

export default function AdminCourseContentPage() {
  const { courseId = '' } = useParams();
  return (
    <ContentEditor key={courseId} courseId={courseId} renderMaterials={(lesson) => <LessonMaterials {...lesson} />} />
  );
}

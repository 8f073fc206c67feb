import { useParams } from 'react-router-dom';
import { ContentEditor } from '@/features/course-content/components/content-editor';
import { LessonMaterials } from '@/features/materials/components/lesson-materials';
import { QuizEditor } from '@/features/quizzes/components/admin/quiz-editor';

export default function AdminCourseContentPage() {
  const { courseId = '' } = useParams();
  return (
    <ContentEditor
      key={courseId}
      courseId={courseId}
      renderMaterials={(lesson) => <LessonMaterials {...lesson} />}
      renderQuiz={(lesson) => <QuizEditor {...lesson} />}
    />
  );
}

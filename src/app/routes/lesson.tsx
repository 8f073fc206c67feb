// Lesson player (SPEC §2 "Lesson player", issue 6): features/lessons' page, with the course and its
// progress writes (features/courses), the lesson's quiz (features/quizzes, issue 23) and its discussion
// (features/discussions, issue 26) composed in. The player has its own header (no member layout).
import { useParams } from 'react-router-dom';
import { useCourseForLessonPlayer } from '@/features/courses/api/hooks';
import { useLessonDiscussion } from '@/features/discussions/components/lesson-discussion-slot';
import { LessonPage as LessonScreen } from '@/features/lessons/components/lesson-page';
import { useLessonQuiz } from '@/features/quizzes/api/hooks';
import { LessonQuizSection } from '@/features/quizzes/components/player/lesson-quiz';
import { useSession } from '@/platform/session';

export default function LessonPage() {
  const { courseId = '', lessonId = '' } = useParams();
  const userId = useSession().user?.id;
  const course = useCourseForLessonPlayer(courseId);
  const quiz = useLessonQuiz(courseId, lessonId, userId);
  const discussion = useLessonDiscussion(lessonId);
  return (
    <LessonScreen
      {...course}
      {...quiz}
      quizSection={(id) => <LessonQuizSection lessonId={id} userId={userId!} />}
      discussion={discussion}
    />
  );
}

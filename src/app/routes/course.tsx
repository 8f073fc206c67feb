// Course detail (SPEC §2 "Course detail", issue 6): features/courses' screen, with the student's quiz
// states (features/quizzes), the payment's status (features/checkout), the certificate card
// (features/certificates) and the member header's ring composed in.
import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { useSetHeaderProgress } from '@/app/layout/header-progress-context';
import { quizStatesByLesson } from '@/concepts/quiz-state';
import { CertificateCard } from '@/features/certificates/components/certificate-button';
import { PaymentStatus } from '@/features/checkout/components/payment-status';
import { CoursePage as CourseScreen } from '@/features/courses/components/course-page';
import { useQuizStates } from '@/features/quizzes/api/hooks';
import { useSession } from '@/platform/session';

export default function CoursePage() {
  const { courseId = '' } = useParams();
  const { user, isAdmin } = useSession();
  const quizStates = useQuizStates(courseId, user?.id, !isAdmin);
  const quizByLesson = useMemo(() => quizStatesByLesson(quizStates.data), [quizStates.data]);
  return (
    <CourseScreen
      courseId={courseId}
      quizByLesson={quizByLesson}
      onProgressPercent={useSetHeaderProgress()}
      paymentStatus={(payment) => <PaymentStatus {...payment} />}
      certificateCard={(course) => <CertificateCard courseId={course.id} courseSlug={course.slug} />}
    />
  );
}

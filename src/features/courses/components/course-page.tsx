// Course detail (SPEC §2 "Course detail", issue 6). One request: the course with its outline, my
// enrollment and my progress; the lesson player reuses that cache entry. What other features add (the
// quiz states, the payment's status, the certificate card, the header's ring) comes in as props,
// composed by src/app/routes/course.tsx.
import { useCallback, useEffect, useMemo, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { SearchX } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { certificateAvailable } from '@/concepts/certificates';
import type { QuizStateRow } from '@/concepts/quiz-state';
import { useCourseDetail } from '@/features/courses/api/hooks';
import type { CourseDetail } from '@/features/courses/api/queries';
import {
  CourseBanner,
  CourseProgressCard,
  CourseSkeleton,
  EnrollmentNotice,
  ModulesSection,
  NotEnrolledCard,
  TurmaStartCard,
} from '@/features/courses/components/course-detail';
import { CourseQuizzes } from '@/features/courses/components/course-quizzes';
import { LoadError } from '@/features/courses/components/home-sections';
import { courseProgress, enrollmentAccess, firstPreviewLesson, lessonIdsOf, nextLessonToStudy } from '@/features/courses/lib/progress';
import { moduleLocks, turmaStartAhead, withoutLockedLessons } from '@/concepts/release';
import { useSession } from '@/platform/session';

export interface PaymentSlot {
  courseId: string;
  userId: string;
  hasAccess: boolean;
  /** Asaas sent the buyer back here (?pagamento=retorno). */
  returning: boolean;
  onPoll: () => void;
  onConfirmed: () => void;
}

interface CoursePageProps {
  courseId: string;
  /** The student's quiz state per lesson in this course (issue 23), read alongside the course. */
  quizByLesson: Map<string, QuizStateRow>;
  /** The member header's progress ring: the percent while the page shows it, null when it leaves. */
  onProgressPercent: (percent: number | null) => void;
  /** The last payment's status for a student (features/checkout). */
  paymentStatus: (payment: PaymentSlot) => ReactNode;
  /** The certificate's card once the course is completed (features/certificates). */
  certificateCard: (course: CourseDetail) => ReactNode;
}

export function CoursePage({ courseId, quizByLesson, onProgressPercent, paymentStatus, certificateCard }: CoursePageProps) {
  const { user, isAdmin } = useSession();
  const detail = useCourseDetail(courseId, user?.id);
  const course = detail.data;
  // Asaas sends the buyer back here with ?pagamento=retorno (create-asaas-charge's successUrl).
  const [search, setSearch] = useSearchParams();
  const returning = search.get('pagamento') === 'retorno';
  const { refetch } = detail;
  const pollCourse = useCallback(() => void refetch(), [refetch]);
  const clearReturn = useCallback(() => setSearch({}, { replace: true }), [setSearch]);

  const view = useMemo(() => {
    if (!course) return null;
    const access = enrollmentAccess(course.enrollments[0]);
    const hasAccess = isAdmin || access === 'active';
    const progress = courseProgress(lessonIdsOf(course.modules), course.progress);
    // Drip release: modules not yet open for this student (staff see everything).
    const enrollment = !isAdmin && access === 'active' ? course.enrollments[0]! : null;
    const locks = moduleLocks(course.modules, { enrollment });
    // A turma that has not started opens no lesson (issue 40): its date instead of the progress card.
    const turma = enrollment?.turma ?? null;
    const turmaAhead = turmaStartAhead(turma) ? turma : null;
    const next = nextLessonToStudy(withoutLockedLessons(course.modules, locks), course.progress);
    const preview = firstPreviewLesson(course.modules);
    const certificate = certificateAvailable({ enabled: course.certificate_enabled, access, completed: progress.completed, total: progress.total });
    return { access, hasAccess, progress, next, preview, certificate, locks, turma, turmaAhead };
  }, [course, isAdmin]);

  const percent = view && view.access !== 'none' ? view.progress.percent : null;
  useEffect(() => {
    onProgressPercent(percent);
    return () => onProgressPercent(null);
  }, [percent, onProgressPercent]);

  if (detail.isPending) return <CourseSkeleton />;
  if (detail.isError)
    return (
      <div className="mx-auto max-w-3xl px-4 py-10">
        <LoadError onRetry={() => void detail.refetch()} />
      </div>
    );
  if (!course || !view)
    return (
      <div className="mx-auto flex max-w-lg flex-col items-center gap-3 px-4 py-20 text-center">
        <SearchX className="size-10 text-muted-foreground" aria-hidden="true" />
        <h1 className="text-xl font-semibold">Curso não encontrado</h1>
        <p className="text-sm text-muted-foreground">Este curso não existe ou não está disponível para você.</p>
        <Button asChild variant="outline">
          <Link to="/">Voltar</Link>
        </Button>
      </div>
    );

  const started = course.progress.length > 0;
  return (
    <>
      <CourseBanner course={course} />
      <div className="mx-auto grid w-full max-w-7xl gap-8 px-4 py-8 sm:px-6 sm:py-10">
        {!isAdmin && user && (
          paymentStatus({ courseId: course.id, userId: user.id, hasAccess: view.access === 'active', returning, onPoll: pollCourse, onConfirmed: clearReturn })
        )}
        {view.access === 'none' && !isAdmin && (
          <NotEnrolledCard
            purchaseUrl={course.purchase_url}
            checkoutHref={course.status === 'PUBLISHED' && Number(course.price) > 0 ? `/checkout/${course.slug}` : null}
            previewHref={view.preview ? `/course/${course.id}/lesson/${view.preview.id}` : null}
          />
        )}
        {(view.access === 'paused' || view.access === 'expired') && !isAdmin && <EnrollmentNotice kind={view.access} />}
        {view.turmaAhead && <TurmaStartCard turma={view.turmaAhead} />}
        {view.hasAccess && view.access === 'active' && !view.turmaAhead && (
          <CourseProgressCard progress={view.progress} started={started} resumeHref={view.next ? `/course/${course.id}/lesson/${view.next.id}` : null} />
        )}
        {view.certificate && certificateCard(course)}
        {view.access === 'active' && !isAdmin && <CourseQuizzes course={course} states={quizByLesson} locks={view.locks} />}
        <ModulesSection course={course} progress={view.access === 'active' ? course.progress : null} locks={view.locks} turma={view.turma} />
      </div>
    </>
  );
}

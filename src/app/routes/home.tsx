// Student home (SPEC §2 "Student home", issue 6): features/courses' page, with what other features add
// to it: a completed course's certificate button (issue 14), the quiz states (issue 23, not for staff),
// the school's plans (issue 24), its ranking of the month (issue 26: the card shows only when the
// school has it on) and its announcement popup.
import { AnnouncementPopup } from '@/features/announcements/components/announcement-popup';
import { CertificateButton } from '@/features/certificates/components/certificate-button';
import { HomePage as HomeScreen } from '@/features/courses/components/home-page';
import { PlanOffers } from '@/features/plans/components/plan-offers';
import { CourseQuizNote, LessonQuizNote } from '@/features/quizzes/components/quiz-notes';
import { RankingCard } from '@/features/ranking/components/ranking-card';
import { useSession } from '@/platform/session';

export default function HomePage() {
  const { user, profile, school, isAdmin } = useSession();
  const schoolId = school?.id ?? profile?.school_id ?? null;
  const member = schoolId && user ? { schoolId, userId: user.id } : null;
  return (
    <>
      <HomeScreen
        certificateButton={(course) => (
          <CertificateButton courseId={course.id} courseSlug={course.slug} size="sm" variant="outline" className="w-full" />
        )}
        cardNote={
          isAdmin
            ? undefined
            : ({ course, enrolled, hasAccess }) =>
                enrolled && hasAccess && <CourseQuizNote courseId={course.id} userId={user?.id} />
        }
        continueNote={isAdmin ? undefined : (item) => <LessonQuizNote lessonId={item.lessonId} userId={user?.id} />}
        ranking={member && <RankingCard {...member} />}
        plans={member && <PlanOffers {...member} />}
      />
      {schoolId && <AnnouncementPopup schoolId={schoolId} />}
    </>
  );
}

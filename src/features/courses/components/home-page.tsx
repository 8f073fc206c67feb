// Student home (SPEC §2 "Student home", issue 6): banner, real progress, "Continuar assistindo",
// "Meus Cursos" / "Cursos Disponíveis", the school's plans ("Assine e tenha acesso a …", issue 24) and
// the school's announcement popup. A student who has not started anything is greeted ("Boas-vindas"),
// and one without a course to study is shown where to start instead of "0 de 0 aulas" (issue 46). Data: the catalog (1 request: every course summed up by the
// database, public.student_catalog), the plans on offer (1 request), the active announcements
// (1 request, shared with the header bell) and the school's ranking (1 request, school_ranking; issue 26:
// the card shows only when the school has it on).
import { useMemo, useState } from 'react';
import { QuizStateBadge, QuizSummary } from '@/concepts/quiz-state-badge';
import { AnnouncementPopup } from '@/features/announcements/components/announcement-popup';
import { CertificateButton } from '@/features/certificates/components/certificate-button';
import { useCatalog } from '@/features/courses/api/hooks';
import { CATALOG_AVAILABLE_PAGE } from '@/features/courses/api/course-urls';
import { Button } from '@/components/ui/button';
import {
  ContinueWatchingCard,
  CourseSection,
  EmptyCourses,
  HomeBanner,
  HomeSkeleton,
  LoadError,
  ProgressSummaryCard,
  StartHereCard,
} from '@/features/courses/components/home-sections';
import { buildHome, type CourseCardModel } from '@/features/courses/lib/progress';
import { PlanOffers } from '@/features/plans/components/plan-offers';
import { RankingCard } from '@/features/ranking/components/ranking-card';
import { useQuizStates } from '@/features/quizzes/api/hooks';
import { certificateAvailable } from '@/concepts/certificates';
import { stateOfRow, type QuizStateRow } from '@/concepts/quiz-state';
import { useSession } from '@/platform/session';

/** 'Baixar certificado' on the card of a course the student completed (issue 14). */
function certificateAction({ course, access, progress }: CourseCardModel) {
  if (!certificateAvailable({ enabled: course.certificate_enabled, access, completed: progress.completed, total: progress.total })) return null;
  return <CertificateButton courseId={course.id} courseSlug={course.slug} size="sm" variant="outline" className="w-full" />;
}

export default function HomePage() {
  const { user, profile, school, isAdmin } = useSession();
  const schoolId = school?.id ?? profile?.school_id ?? null;
  // Courses without enrollment come a page at a time ('Ver mais cursos'); enrolled ones all at once.
  const [availableLimit, setAvailableLimit] = useState(CATALOG_AVAILABLE_PAGE);
  const catalog = useCatalog(schoolId, user?.id, availableLimit);
  const home = useMemo(() => (catalog.data ? buildHome(catalog.data.courses, { isAdmin }) : null), [catalog.data, isAdmin]);
  const availableTotal = catalog.data?.availableTotal ?? 0;
  const studying = home ? home.mine.filter((c) => c.hasAccess).length : 0;
  // The quiz states of every course the student studies (issue 23), one request once the catalog says there is one.
  const quizStates = useQuizStates(null, user?.id, studying > 0 && !isAdmin);
  const quizzes = useMemo(() => {
    const byCourse = new Map<string, QuizStateRow[]>();
    const byLesson = new Map<string, QuizStateRow>();
    for (const row of quizStates.data ?? []) {
      byCourse.set(row.course_id, [...(byCourse.get(row.course_id) ?? []), row]);
      byLesson.set(row.lesson_id, row);
    }
    return { byCourse, byLesson };
  }, [quizStates.data]);
  const quizNote = ({ course, enrolled, hasAccess }: CourseCardModel) =>
    enrolled && hasAccess && quizzes.byCourse.has(course.id) ? <QuizSummary rows={quizzes.byCourse.get(course.id)!} /> : null;
  const continueQuiz = home?.continueWatching ? quizzes.byLesson.get(home.continueWatching.lessonId) : undefined;

  return (
    <>
      <HomeBanner
        bannerUrl={school?.banner_url}
        bannerPosition={school?.banner_position}
        name={profile?.name}
        // Staff are not greeted as newcomers; until the catalog says, the words wait (invisible).
        greeting={isAdmin || !schoolId || catalog.isError ? 'returning' : !home ? null : home.firstVisit ? 'first' : 'returning'}
        hasCourses={!!home && (home.mine.length > 0 || home.available.length > 0)}
      />
      <div className="mx-auto grid w-full max-w-7xl gap-10 px-4 py-8 sm:px-6 sm:py-10">
        {catalog.isPending && schoolId ? (
          <HomeSkeleton />
        ) : catalog.isError ? (
          <LoadError onRetry={() => void catalog.refetch()} />
        ) : !home || (home.mine.length === 0 && home.available.length === 0) ? (
          <EmptyCourses />
        ) : (
          <>
            <div className={home.continueWatching ? 'grid gap-4 md:grid-cols-2' : 'grid gap-4 md:max-w-md'}>
              {studying === 0 && !isAdmin ? (
                <StartHereCard hasCoursesForSale={home.available.length > 0} />
              ) : (
                <ProgressSummaryCard overall={home.overall} courses={studying} />
              )}
              {home.continueWatching && (
                <ContinueWatchingCard
                  item={home.continueWatching}
                  note={continueQuiz && <QuizStateBadge tone="dark" value={stateOfRow(continueQuiz)} />}
                />
              )}
            </div>
            {home.mine.length > 0 && <CourseSection id="meus-cursos" title="Meus Cursos" cards={home.mine} cardAction={certificateAction} cardNote={quizNote} />}
            {/* Issue 26: the school's ranking of the month, only when the school has it on; after the
                student's own courses, or, for one without any, after what is for sale (issue 46). */}
            {schoolId && user && home.mine.length > 0 && <RankingCard schoolId={schoolId} userId={user.id} />}
            {home.available.length > 0 && (
              <CourseSection
                id="cursos-disponiveis"
                title="Cursos Disponíveis"
                subtitle="Conheça outros cursos da sua escola"
                cards={home.available}
                total={availableTotal}
                footer={
                  home.available.length < availableTotal && (
                    <div className="flex justify-center">
                      <Button variant="outline" disabled={catalog.isFetching} onClick={() => setAvailableLimit((n) => n + CATALOG_AVAILABLE_PAGE)}>
                        {catalog.isFetching ? 'Carregando...' : `Ver mais cursos (${availableTotal - home.available.length})`}
                      </Button>
                    </div>
                  )
                }
              />
            )}
            {/* Issue 24: the school's plans, after the courses for sale (it arrives after the catalog: below it, it pushes nothing down). */}
            {schoolId && user && <PlanOffers schoolId={schoolId} userId={user.id} />}
            {schoolId && user && home.mine.length === 0 && <RankingCard schoolId={schoolId} userId={user.id} />}
          </>
        )}
      </div>
      {schoolId && <AnnouncementPopup schoolId={schoolId} />}
    </>
  );
}

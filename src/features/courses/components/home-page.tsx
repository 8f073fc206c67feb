// Student home (SPEC §2 "Student home", issue 6): banner, real progress, "Continuar assistindo",
// "Meus Cursos" / "Cursos Disponíveis". A student who has not started anything is greeted ("Boas-vindas"),
// and one without a course to study is shown where to start instead of "0 de 0 aulas" (issue 46). Data:
// the catalog (1 request: every course summed up by the database, public.student_catalog). What other
// features add (a card's certificate button and quiz states, the school's plans and ranking) comes in
// as props, composed by src/app/routes/home.tsx; this page only says where each goes.
import { useMemo, useState, type ReactNode } from 'react';
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
import { buildHome, type ContinueWatching, type CourseCardModel } from '@/features/courses/lib/progress';
import { certificateAvailable } from '@/concepts/certificates';
import { useSession } from '@/platform/session';

interface HomePageProps {
  /** 'Baixar certificado' on the card of a course the student completed (issue 14). */
  certificateButton: (course: CourseCardModel['course']) => ReactNode;
  /** Under a course card: its note (the quizzes' state). */
  cardNote?: (card: CourseCardModel) => ReactNode;
  /** Under "Continuar assistindo"'s lesson title (the lesson's quiz state). */
  continueNote?: (item: ContinueWatching) => ReactNode;
  /** The school's ranking of the month (issue 26) and its plans on offer (issue 24). */
  ranking?: ReactNode;
  plans?: ReactNode;
}

export function HomePage({ certificateButton, cardNote, continueNote, ranking, plans }: HomePageProps) {
  const { user, profile, school, isAdmin } = useSession();
  const schoolId = school?.id ?? profile?.school_id ?? null;
  // Courses without enrollment come a page at a time ('Ver mais cursos'); enrolled ones all at once.
  const [availableLimit, setAvailableLimit] = useState(CATALOG_AVAILABLE_PAGE);
  const catalog = useCatalog(schoolId, user?.id, availableLimit);
  const home = useMemo(() => (catalog.data ? buildHome(catalog.data.courses, { isAdmin }) : null), [catalog.data, isAdmin]);
  const availableTotal = catalog.data?.availableTotal ?? 0;
  const studying = home ? home.mine.filter((c) => c.hasAccess).length : 0;
  const cardAction = ({ course, access, progress }: CourseCardModel) =>
    certificateAvailable({ enabled: course.certificate_enabled, access, completed: progress.completed, total: progress.total }) && certificateButton(course);
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
                  note={continueNote?.(home.continueWatching)}
                />
              )}
            </div>
            {home.mine.length > 0 && <CourseSection id="meus-cursos" title="Meus Cursos" cards={home.mine} cardAction={cardAction} cardNote={cardNote} />}
            {/* Issue 26: the school's ranking of the month, only when the school has it on; after the
                student's own courses, or, for one without any, after what is for sale (issue 46). */}
            {home.mine.length > 0 && ranking}
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
            {plans}
            {home.mine.length === 0 && ranking}
          </>
        )}
      </div>
    </>
  );
}

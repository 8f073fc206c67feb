// Lesson player (SPEC §2 "Lesson player", §4 completion/position rules, issue 6). Data: the course
// detail (outline + my enrollment + my progress; cached per course, shared with the course page, so
// moving between lessons does not refetch it), the lesson bundle (content, video URL, materials, my
// rating) and, for an uploaded video, its signed URL: at most 3 requests; the quiz (issue 23): the
// lesson's quiz and the student's quiz states in the course (side panel), both cached; and the
// lesson's discussion (issue 26), requested with the rest, drawn by its own lazy chunk. What other
// features own (the course and its progress writes, the quiz, the discussion) comes in as props,
// composed by src/app/routes/lesson.tsx.
import { useMemo, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { SearchX } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { courseProgress, lessonIdsOf } from '@/concepts/course-progress';
import { enrollmentAccess, type EnrollmentState } from '@/concepts/enrollment';
import { quizStatesByLesson, type QuizStateRow } from '@/concepts/quiz-state';
import { moduleLocks, type ReleaseRule } from '@/concepts/release';
import { useLessonBundle } from '@/features/lessons/api/hooks';
import {
  AccessRestricted,
  Breadcrumb,
  CompleteButton,
  LessonHeader,
  LessonNav,
  LessonRating,
  LessonSkeleton,
  QuizRequiredNotice,
  ReleasePending,
} from '@/features/lessons/components/lesson-parts';
import { LessonTabs } from '@/features/lessons/components/lesson-tabs';
import { LessonSidebar, type SidebarLesson } from '@/features/lessons/components/lesson-sidebar';
import { LessonVideo, type LessonVideoKind } from '@/features/lessons/components/lesson-video';
import { locateLesson } from '@/features/lessons/lib/navigation';
import { useSession } from '@/platform/session';
import { cn } from '@/utils/cn';

/** The course as the player reads it: features/courses' detail (outline, my enrollment, my progress). */
export interface LessonCourse {
  title: string;
  modules: readonly ({ id: string; title: string; lessons: readonly (SidebarLesson & { video_type: LessonVideoKind })[] } & ReleaseRule)[];
  enrollments: readonly (EnrollmentState & { created_at: string })[];
  progress: readonly { lesson_id: string; completed_at: string | null; last_position_sec: number }[];
}

/** A query's state, as TanStack Query's useQuery answers it. */
interface Read<T> {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
  refetch: () => unknown;
}

export interface LessonPageProps {
  course: Read<LessonCourse | null>;
  /** Marks a lesson completed (features/courses' progress write). */
  complete: { mutate: (lessonId: string) => void; isPending: boolean; variables?: string };
  /** Saves the playback position: on the way, and the last chance when the page is closed. */
  onSavePosition: (lessonId: string, positionSec: number) => void;
  onUnload: (lessonId: string, positionSec: number) => void;
  /** The lesson's published quiz (null: none) and the student's quiz states in the course (features/quizzes). */
  quiz: Read<unknown>;
  quizStates: QuizStateRow[] | undefined;
  /** The quiz player under the lesson, and the lesson's discussion (each its own lazy chunk). */
  quizSection: (lessonId: string) => ReactNode;
  discussion: (lessonId: string) => ReactNode;
}

function NotFound() {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-3 px-4 py-20 text-center">
      <SearchX className="size-10 text-slate-400" aria-hidden="true" />
      <h1 className="text-xl font-semibold text-white">Aula não encontrada</h1>
      <p className="text-sm text-slate-400">Esta aula não existe ou não está disponível para você.</p>
      <Button asChild variant="outline">
        <Link to="/">Voltar ao início</Link>
      </Button>
    </div>
  );
}

export function LessonPage({ course: detail, complete, onSavePosition, onUnload, quiz, quizStates, quizSection, discussion }: LessonPageProps) {
  const { courseId = '', lessonId = '' } = useParams();
  const { user, profile, isAdmin } = useSession();
  const userId = user?.id;
  const bundle = useLessonBundle(lessonId, userId);
  const quizByLesson = useMemo(() => quizStatesByLesson(quizStates), [quizStates]);

  const course = detail.data ?? null;
  const view = useMemo(() => {
    if (!course) return null;
    const access = enrollmentAccess(course.enrollments[0]);
    const completedIds = new Set(course.progress.filter((p) => p.completed_at).map((p) => p.lesson_id));
    return {
      access,
      courseAccess: isAdmin || access === 'active',
      completedIds,
      progress: courseProgress(lessonIdsOf(course.modules), course.progress),
      located: locateLesson(course.modules, lessonId),
      row: course.progress.find((p) => p.lesson_id === lessonId) ?? null,
      // Drip release: modules not yet open for this student (staff see everything).
      locks: moduleLocks(course.modules, { enrollment: !isAdmin && access === 'active' ? course.enrollments[0]! : null }),
    };
  }, [course, isAdmin, lessonId]);

  const userName = profile?.name || user?.email || '';
  const loading = detail.isPending || bundle.isPending;
  const lessonData = bundle.data;
  const notFound = !loading && (!course || !view?.located || !lessonData || lessonData.course_id !== courseId);
  // The backend decides: without access the lesson's content row is not readable.
  const restricted = !loading && !notFound && !lessonData?.contents;

  let main: React.ReactNode;
  if (detail.isError || bundle.isError) {
    main = (
      <div className="mx-auto flex max-w-md flex-col items-center gap-3 px-4 py-20 text-center">
        <p className="text-white">Não foi possível carregar a aula.</p>
        <Button
          variant="outline"
          onClick={() => {
            void detail.refetch();
            void bundle.refetch();
          }}
        >
          Tentar novamente
        </Button>
      </div>
    );
  } else if (loading) {
    main = (
      <div className="mx-auto w-full max-w-[1600px] sm:px-4 sm:py-6">
        <LessonSkeleton />
      </div>
    );
  } else if (notFound) {
    main = <NotFound />;
  } else if (restricted) {
    // The backend refused the content: before the module's release, say when it opens.
    const lockedUntil = view!.locks.get(view!.located!.module.id);
    main = lockedUntil ? <ReleasePending courseId={courseId} releaseAt={lockedUntil} /> : <AccessRestricted courseId={courseId} />;
  } else {
    const { located, row, completedIds, courseAccess } = view!;
    const lesson = located!.lesson;
    const contents = lessonData!.contents!;
    const completed = completedIds.has(lesson.id);
    // A lesson with a published quiz completes only when the quiz is passed (the database drops any
    // other completion): neither the button nor the video's end tries.
    const hasQuiz = !!quiz.data || quizByLesson.has(lesson.id);
    const markComplete = (id: string) => {
      if (completedIds.has(id) || complete.isPending || quizByLesson.has(id) || (id === lesson.id && hasQuiz)) return;
      complete.mutate(id);
    };
    // A quiz-only lesson has no video frame to show (nor while its quiz loads).
    const quizOnly = lesson.video_type === 'none' && (hasQuiz || quiz.isPending);
    main = (
      <div className={cn('mx-auto grid w-full max-w-[1600px] gap-6 pb-10 sm:px-4 sm:pb-28 sm:pt-6 lg:grid-cols-[minmax(0,1fr)_22rem]', quizOnly && 'pt-4')}>
        <div className="grid min-w-0 content-start gap-6">
          {!quizOnly && (
            <LessonVideo
              key={lesson.id}
              lessonId={lesson.id}
              kind={lesson.video_type}
              url={contents.video_url}
              poster={contents.video_poster}
              viewerId={user?.id}
              durationSec={lesson.duration_sec}
              completed={completed}
              startAt={row?.last_position_sec ?? 0}
              onSave={(t) => onSavePosition(lesson.id, t)}
              onUnload={(t) => onUnload(lesson.id, t)}
              onComplete={() => markComplete(lesson.id)}
            />
          )}
          <div className="grid gap-6 px-4 sm:px-0">
            <div className="grid gap-3">
              <Breadcrumb moduleTitle={located!.module.title} />
              <h1 className="text-2xl font-bold tracking-tight text-white sm:text-3xl">{lesson.title}</h1>
              <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
                <LessonRating key={lesson.id} lessonId={lesson.id} userId={userId!} value={lessonData!.myRating} />
                <LessonNav courseId={courseId} previous={located!.previous} next={located!.next} />
              </div>
              <p className="text-xs text-slate-400">
                Aula {located!.index} de {located!.total} · Módulo {located!.moduleNumber}
              </p>
              {hasQuiz && !completed && <QuizRequiredNotice />}
              {/* Not before the quiz says whether the lesson has one (a click then would complete nothing);
                  a lesson with a quiz shows QuizRequiredNotice until it is passed. Floats from 640 px up. */}
              {!quiz.isPending && (!hasQuiz || completed) && (
                <CompleteButton completed={completed} pending={complete.isPending && complete.variables === lesson.id} onComplete={() => markComplete(lesson.id)} />
              )}
            </div>
            <div className="rounded-xl border border-white/10 bg-slate-900/60 p-4 sm:p-6">
              <LessonTabs key={lesson.id} content={contents.content} materials={lessonData!.materials} afterVideo={!quizOnly && lesson.video_type !== 'none'} />
            </div>
            {!!quiz.data && quizSection(lesson.id)}
            <div className="rounded-xl border border-white/10 bg-slate-900/60 p-4 sm:p-6">{discussion(lesson.id)}</div>
          </div>
        </div>
        <div className="hidden lg:block" data-testid="lesson-sidebar">
          <div className="sticky top-22">
            <LessonSidebar
              courseId={courseId}
              modules={course!.modules}
              currentLessonId={lesson.id}
              completedIds={completedIds}
              hasAccess={courseAccess}
              locks={view!.locks}
              quizStates={quizByLesson}
              onComplete={markComplete}
            />
          </div>
        </div>
      </div>
    );
  }

  const showRing = view && (view.access !== 'none' || isAdmin);
  return (
    <div className="min-h-dvh bg-slate-950 text-slate-100">
      <LessonHeader courseId={courseId} courseTitle={course?.title ?? ''} percent={showRing ? view.progress.percent : null} userName={userName} avatarUrl={profile?.avatar_url} />
      <main id="conteudo">{main}</main>
    </div>
  );
}

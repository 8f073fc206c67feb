import { Link } from 'react-router-dom';
import { ArrowLeft, CalendarClock, Check, ChevronLeft, ChevronRight, ClipboardCheck, Lock } from 'lucide-react';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { ProgressRing } from '@/components/ui/progress-ring';
import { Skeleton } from '@/components/ui/skeleton';
import { StarRating } from '@/components/ui/star-rating';
import { availableOnText } from '@/concepts/release';
import { cn } from '@/utils/cn';
import { useRateLesson } from '../api/hooks';


export function LessonHeader({ courseId, courseTitle, percent, userName, avatarUrl }: { courseId: string; courseTitle: string; percent: number | null; userName: string; avatarUrl?: string | null }) {
  return (
    <header className="sticky top-0 z-40 border-b border-white/10 bg-slate-950/90 text-white backdrop-blur">
      <div className="mx-auto flex h-14 w-full max-w-[1600px] items-center gap-2 px-2 sm:h-16 sm:gap-3 sm:px-4">
        <Button asChild variant="ghost" size="sm" className="shrink-0 text-slate-200 hover:bg-white/10 hover:text-white">
          <Link to={`/course/${courseId}`} aria-label="Voltar para o curso">
            <ArrowLeft aria-hidden="true" />
            <span className="max-sm:hidden">Voltar</span>
          </Link>
        </Button>
        <p className="min-w-0 flex-1 truncate text-sm font-semibold sm:text-base">{courseTitle}</p>
        {percent !== null && <ProgressRing value={percent} size={40} className="[&_circle:first-child]:stroke-white/15 [&_span]:text-white" />}
        <Avatar name={userName} src={avatarUrl} className="size-9" fallbackClassName="bg-white/15 text-white" />
      </div>
    </header>
  );
}

export function Breadcrumb({ moduleTitle }: { moduleTitle: string }) {
  return (
    <nav aria-label="Trilha de navegação" className="text-sm text-slate-400">
      <ol className="flex min-w-0 items-center gap-1.5">
        <li>
          <Link to="/" className="rounded hover:text-white">
            Início
          </Link>
        </li>
        <li aria-hidden="true">
          <ChevronRight className="size-3.5" />
        </li>
        <li className="min-w-0 truncate text-slate-300" aria-current="page">
          {moduleTitle}
        </li>
      </ol>
    </nav>
  );
}

export function LessonRating({ lessonId, userId, value }: { lessonId: string; userId: string; value: number }) {
  const rate = useRateLesson(lessonId, userId);
  return (
    <div className="flex items-center gap-2">
      <span className="text-sm text-slate-400">Avalie esta aula:</span>
      <StarRating value={value} onChange={(r) => rate.mutate(r)} disabled={rate.isPending} label="Avaliar esta aula" />
    </div>
  );
}

export function LessonNav({ courseId, previous, next }: { courseId: string; previous: { id: string; title: string } | null; next: { id: string; title: string } | null }) {
  const cls = 'border-white/15 bg-white/5 text-slate-100 hover:bg-white/10 hover:text-white';
  return (
    <div className="flex gap-2">
      {previous ? (
        <Button asChild variant="outline" className={cn(cls, 'flex-1 sm:flex-none')}>
          <Link to={`/course/${courseId}/lesson/${previous.id}`} title={previous.title}>
            <ChevronLeft aria-hidden="true" />
            Aula anterior
          </Link>
        </Button>
      ) : (
        <Button variant="outline" disabled className={cn(cls, 'flex-1 sm:flex-none')}>
          <ChevronLeft aria-hidden="true" />
          Aula anterior
        </Button>
      )}
      {next ? (
        <Button asChild className="flex-1 sm:flex-none">
          <Link to={`/course/${courseId}/lesson/${next.id}`} title={next.title}>
            Próxima aula
            <ChevronRight aria-hidden="true" />
          </Link>
        </Button>
      ) : (
        <Button disabled className="flex-1 sm:flex-none">
          Próxima aula
          <ChevronRight aria-hidden="true" />
        </Button>
      )}
    </div>
  );
}

/** Floating at the bottom right from 640 px up (SPEC); on a phone, where it covered the lesson's text
 * (issue 46), it stays in the page's flow under the lesson's title, full width. */
export function CompleteButton({ completed, pending, onComplete }: { completed: boolean; pending: boolean; onComplete: () => void }) {
  return (
    <div className="sm:pointer-events-none sm:fixed sm:right-6 sm:bottom-6 sm:z-30" data-testid="complete-lesson">
      <Button
        size="lg"
        onClick={onComplete}
        disabled={completed || pending}
        className={cn(
          'pointer-events-auto w-full rounded-full shadow-black/30 disabled:opacity-100 sm:w-auto sm:shadow-xl',
          completed ? 'bg-green-600 hover:bg-green-600' : 'bg-primary',
          pending && 'opacity-80',
        )}
      >
        <Check aria-hidden="true" />
        {completed ? 'Aula concluída' : 'Marcar como concluída'}
      </Button>
    </div>
  );
}

/** In place of 'Marcar como concluída' on a lesson with a quiz: it completes only when the quiz is
 * passed (the database drops any other completion). Inline, not floating: on a phone a floating
 * notice would cover the quiz's options. */
export function QuizRequiredNotice() {
  return (
    <a
      href="#avaliacao"
      data-testid="quiz-required"
      className="flex w-fit items-center gap-2 rounded-lg bg-white/5 px-3 py-2 text-sm text-slate-200 ring-1 ring-white/10 hover:bg-white/10 hover:text-white"
    >
      <ClipboardCheck className="size-4 shrink-0 text-primary-on-dark" aria-hidden="true" />
      Seja aprovado na avaliação para concluir esta aula.
    </a>
  );
}

export function AccessRestricted({ courseId }: { courseId: string }) {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-4 px-4 py-16 text-center sm:py-24" data-testid="access-restricted">
      <span className="flex size-16 items-center justify-center rounded-full bg-white/10 text-amber-400 ring-1 ring-white/15">
        <Lock className="size-7" aria-hidden="true" />
      </span>
      <h1 className="text-2xl font-bold text-white">Acesso Restrito</h1>
      <p className="text-slate-300">Você precisa estar matriculado neste curso para acessar esta aula.</p>
      <Button asChild size="lg">
        <Link to={`/course/${courseId}`}>Voltar ao Curso</Link>
      </Button>
    </div>
  );
}

/** A lesson of a module not released yet for this student (drip release): the backend gives none of
 * its content; this says when it opens. */
export function ReleasePending({ courseId, releaseAt }: { courseId: string; releaseAt: Date }) {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-4 px-4 py-16 text-center sm:py-24" data-testid="release-pending">
      <span className="flex size-16 items-center justify-center rounded-full bg-white/10 text-amber-400 ring-1 ring-white/15">
        <CalendarClock className="size-7" aria-hidden="true" />
      </span>
      <h1 className="text-2xl font-bold text-white">Conteúdo ainda não liberado</h1>
      <p className="text-slate-300">Esta aula faz parte de um módulo com liberação programada.</p>
      <p className="rounded-full bg-amber-400/15 px-4 py-1.5 font-semibold text-amber-300 ring-1 ring-amber-400/30">{availableOnText(releaseAt)}</p>
      <Button asChild size="lg">
        <Link to={`/course/${courseId}`}>Voltar ao Curso</Link>
      </Button>
    </div>
  );
}

export function LessonSkeleton() {
  return (
    <div className="grid gap-4" data-testid="lesson-skeleton">
      <Skeleton className="aspect-video w-full bg-white/10 sm:rounded-xl" />
      <Skeleton className="h-4 w-40 bg-white/10" />
      <Skeleton className="h-8 w-2/3 bg-white/10" />
      <Skeleton className="h-24 w-full bg-white/10" />
    </div>
  );
}

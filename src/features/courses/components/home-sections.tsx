import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { BookOpen, GraduationCap, Play, Sparkles } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ProgressBar } from '@/components/ui/progress-bar';
import { ProgressRing } from '@/components/ui/progress-ring';
import { Skeleton } from '@/components/ui/skeleton';
import { StorageImage } from '@/components/ui/storage-image';
import { cn } from '@/utils/cn';
import type { ContinueWatching, CourseCardModel, ProgressSummary } from '../lib/progress';
import { formatClock } from '../lib/time';
import { CourseCard, CourseCardSkeleton } from './course-card';

/** The banner covers the section: its painted width is at least the section's height (13rem, min-h-52) × 21/9. */
const HOME_BANNER_SIZES = 'max(100vw, 31rem)';

/**
 * `greeting`: 'first' for a student who has not started anything yet (issue 46: "Boas-vindas, Mariana!",
 * words that assume no gender), 'returning' for everyone else (SPEC: 'Bem-vindo de volta' / 'Continue sua
 * jornada de aprendizado', exactly), null while the catalog that tells them apart loads (the words'
 * room is kept, invisible, so nothing moves).
 */
export function HomeBanner({
  bannerUrl,
  bannerPosition,
  name,
  greeting,
  hasCourses = true,
}: {
  bannerUrl: string | null | undefined;
  bannerPosition: string | null | undefined;
  name?: string | null;
  greeting: 'first' | 'returning' | null;
  /** For the first visit's invitation: courses on the page to start from. */
  hasCourses?: boolean;
}) {
  const first = name?.trim().split(/\s+/)[0];
  return (
    <section className="relative isolate overflow-hidden bg-slate-900 text-white" aria-labelledby="home-title">
      {bannerUrl ? (
        // The home page's largest paint: fetched first (banner ratio 21:9, 2100×900), at the width
        // it is painted: the page's width, or on a phone the section's height × 21/9 (object-cover).
        <StorageImage
          src={bannerUrl}
          priority
          sizes={HOME_BANNER_SIZES}
          width={2100}
          height={900}
          className="absolute inset-0 -z-10 size-full object-cover"
          style={{ objectPosition: bannerPosition || '50% 50%' }}
        />
      ) : (
        <div className="absolute inset-0 -z-10 bg-gradient-to-br from-primary to-secondary" />
      )}
      <div className="absolute inset-0 -z-10 bg-gradient-to-r from-slate-950/85 via-slate-950/55 to-slate-950/10" />
      {greeting === 'first' ? (
        <div className="mx-auto flex min-h-52 w-full max-w-7xl flex-col justify-end gap-2 px-4 py-8 sm:min-h-64 sm:px-6 sm:py-10">
          <h1 id="home-title" className="text-3xl font-bold tracking-tight sm:text-4xl">
            {first ? `Boas-vindas, ${first}!` : 'Boas-vindas!'}
          </h1>
          <p className="max-w-xl text-base text-white/85 sm:text-lg">
            {hasCourses ? 'Que bom ter você aqui. Escolha um curso e comece a aprender.' : 'Que bom ter você aqui.'}
          </p>
        </div>
      ) : (
        <div
          className={cn('mx-auto flex min-h-52 w-full max-w-7xl flex-col justify-end gap-2 px-4 py-8 sm:min-h-64 sm:px-6 sm:py-10', !greeting && 'invisible')}
          aria-hidden={greeting ? undefined : true}
        >
          {first && <p className="text-sm font-medium text-white/80">Olá, {first}!</p>}
          <h1 id="home-title" className="text-3xl font-bold tracking-tight sm:text-4xl">
            Bem-vindo de volta
          </h1>
          <p className="max-w-xl text-base text-white/85 sm:text-lg">Continue sua jornada de aprendizado</p>
        </div>
      )}
    </section>
  );
}

/** In place of "Seu Progresso" for a student with no course to study yet (issue 46): where to start. */
export function StartHereCard({ hasCoursesForSale }: { hasCoursesForSale: boolean }) {
  return (
    <section aria-labelledby="comece-por-aqui" className="flex items-start gap-4 rounded-2xl border border-border bg-white p-5 shadow-sm" data-testid="start-here">
      <span className="flex size-12 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
        <Sparkles className="size-6" aria-hidden="true" />
      </span>
      <div className="grid min-w-0 gap-1">
        <h2 id="comece-por-aqui" className="text-base font-semibold">
          Comece por aqui
        </h2>
        <p className="text-sm text-muted-foreground">
          {hasCoursesForSale
            ? 'Você ainda não tem cursos. Conheça os cursos da escola e escolha o primeiro: seu progresso aparece aqui.'
            : 'Você ainda não tem cursos. Quando tiver, seu progresso aparece aqui.'}
        </p>
        {hasCoursesForSale && (
          <a href="#cursos-disponiveis" className="w-fit text-sm font-semibold text-primary underline-offset-2 hover:underline">
            Ver cursos disponíveis
          </a>
        )}
      </div>
    </section>
  );
}

export function ProgressSummaryCard({ overall, courses }: { overall: ProgressSummary; courses: number }) {
  return (
    <section aria-labelledby="seu-progresso" className="flex items-center gap-5 rounded-2xl border border-border bg-white p-5 shadow-sm" data-testid="overall-progress">
      <ProgressRing value={overall.percent} size={72} label="Seu progresso geral" />
      <div className="min-w-0">
        <h2 id="seu-progresso" className="text-base font-semibold">
          Seu Progresso
        </h2>
        <p className="text-sm text-muted-foreground">
          {overall.total === 0 ? 'Seus cursos ainda não têm aulas publicadas.' : `${overall.completed} de ${overall.total} aulas completas`}
        </p>
        <p className="mt-0.5 text-xs text-muted-foreground">
          {courses === 0 ? 'Nenhum curso em andamento' : `${courses} ${courses === 1 ? 'curso em andamento' : 'cursos em andamento'}`}
        </p>
      </div>
    </section>
  );
}

/** `note`: composed by the page under the lesson's title (e.g. the lesson's quiz state), with its own top margin. */
export function ContinueWatchingCard({ item, note }: { item: ContinueWatching; note?: ReactNode }) {
  const pct = item.durationSec > 0 ? (item.positionSec / item.durationSec) * 100 : 0;
  return (
    <section aria-labelledby="continuar-assistindo" className="flex flex-col gap-3 rounded-2xl border border-border bg-gradient-to-br from-slate-900 to-slate-800 p-5 text-white shadow-sm sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1">
        <h2 id="continuar-assistindo" className="text-xs font-semibold tracking-wide text-white/70 uppercase">
          Continuar assistindo
        </h2>
        <p className="mt-1 truncate text-base font-semibold">{item.lessonTitle}</p>
        <p className="truncate text-sm text-white/70">{item.courseTitle}</p>
        {/* The note brings its own top margin: a note that draws nothing leaves no gap. */}
        {note}
        {item.positionSec > 0 && (
          <div className="mt-2 flex items-center gap-2">
            <ProgressBar value={pct} label="Posição no vídeo" className="h-1.5 max-w-48 bg-white/20" />
            <span className="text-xs text-white/70">parou em {formatClock(item.positionSec)}</span>
          </div>
        )}
      </div>
      <Button asChild variant="outline" className="border-0 bg-white text-slate-900 hover:bg-white/90">
        <Link to={`/course/${item.courseId}/lesson/${item.lessonId}`} aria-label={`Continuar assistindo: ${item.lessonTitle}`}>
          <Play aria-hidden="true" className="fill-current" />
          Continuar
        </Link>
      </Button>
    </section>
  );
}

export function CourseSection({
  id,
  title,
  subtitle,
  cards,
  total = cards.length,
  cardAction,
  cardNote,
  footer,
}: {
  id: string;
  title: string;
  subtitle?: ReactNode;
  cards: CourseCardModel[];
  /** How many courses the section has in all (more than `cards` when the rest load on demand). */
  total?: number;
  /** An extra button per card, composed by the page (src/app/routes/home.tsx). */
  cardAction?: (card: CourseCardModel) => ReactNode;
  /** A line under a card's progress, composed by the page (the course's quizzes). */
  cardNote?: (card: CourseCardModel) => ReactNode;
  /** Below the grid (e.g. 'Ver mais cursos'). */
  footer?: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="grid gap-4">
      <div className="flex items-end justify-between gap-2">
        <div>
          <h2 id={id} className="text-xl font-bold tracking-tight">
            {title}
          </h2>
          {subtitle && <p className="text-sm text-muted-foreground">{subtitle}</p>}
        </div>
        <span className="text-sm text-muted-foreground">{total}</span>
      </div>
      <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
        {cards.map((c) => (
          <CourseCard key={c.course.id} model={c} action={cardAction?.(c)} note={cardNote?.(c)} />
        ))}
      </div>
      {footer}
    </section>
  );
}

export function EmptyCourses() {
  return (
    <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-border bg-white px-6 py-16 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-primary/10 text-primary">
        <GraduationCap className="size-7" aria-hidden="true" />
      </span>
      <h2 className="text-lg font-semibold">Nenhum curso disponível</h2>
      <p className="max-w-sm text-sm text-muted-foreground">Entre em contato com sua escola para mais informações</p>
    </div>
  );
}

export function HomeSkeleton() {
  return (
    <div className="grid gap-8" data-testid="home-skeleton">
      <div className="grid gap-4 md:grid-cols-2">
        <Skeleton className="h-28 rounded-2xl" />
        <Skeleton className="h-28 rounded-2xl" />
      </div>
      <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
        {[0, 1, 2].map((i) => (
          <CourseCardSkeleton key={i} />
        ))}
      </div>
    </div>
  );
}

export function LoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 rounded-2xl border border-border bg-white px-6 py-12 text-center">
      <BookOpen className="size-8 text-muted-foreground" aria-hidden="true" />
      <p className="font-medium">Não foi possível carregar os cursos.</p>
      <Button variant="outline" onClick={onRetry}>
        Tentar novamente
      </Button>
    </div>
  );
}

import { Link } from 'react-router-dom';
import { ArrowLeft, CalendarClock, CheckCircle2, Layers, Lock, PlayCircle, ShoppingCart } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Skeleton } from '@/components/ui/skeleton';
import { StorageImage } from '@/components/ui/storage-image';
import { lockedModuleText, turmaModuleDate, turmaStartsText, type EnrollmentTurma } from '@/concepts/release';
import { cn } from '@/utils/cn';
import type { CourseDetail, OutlineModule, ProgressRow } from '../api/queries';
import type { ProgressSummary } from '../lib/progress';

/** A module card: 1 column, 2 from 480 px, 3 from lg, 4 from xl (max-w-7xl, px-4 / sm:px-6, gap-5). */
const MODULE_GRID_SIZES =
  '(min-width: 1280px) 293px, (min-width: 1024px) calc((100vw - 88px) / 3), (min-width: 640px) calc((100vw - 68px) / 2), (min-width: 480px) calc((100vw - 52px) / 2), calc(100vw - 32px)';

export function CourseBanner({ course }: { course: CourseDetail }) {
  const image = course.banner_url || course.thumbnail_url;
  const position = course.banner_url ? course.banner_position : course.thumbnail_position;
  return (
    <section className="relative isolate overflow-hidden bg-slate-900 text-white">
      {image ? (
        // The course page's largest paint. It covers the section (about 14.5rem high on a phone, where
        // it is painted wider than the screen: height × the banner's 21:9).
        <StorageImage
          src={image}
          priority
          sizes="max(100vw, 34rem)"
          className="absolute inset-0 -z-10 size-full object-cover"
          style={{ objectPosition: position || '50% 50%' }}
        />
      ) : (
        <div className="absolute inset-0 -z-10 bg-gradient-to-br from-primary to-secondary" />
      )}
      <div className="absolute inset-0 -z-10 bg-gradient-to-t from-slate-950/90 via-slate-950/50 to-slate-950/20" />
      <div className="mx-auto flex min-h-56 w-full max-w-7xl flex-col gap-6 px-4 pt-4 pb-8 sm:min-h-72 sm:px-6 sm:pb-10">
        <div>
          <Button asChild variant="ghost" size="sm" className="-ml-2 text-white hover:bg-white/15 hover:text-white">
            <Link to="/">
              <ArrowLeft aria-hidden="true" />
              Voltar
            </Link>
          </Button>
        </div>
        <div className="mt-auto grid max-w-3xl gap-2">
          <h1 className="text-2xl font-bold tracking-tight sm:text-4xl">{course.title}</h1>
          {course.description && <p className="line-clamp-3 text-sm text-white/85 sm:text-base">{course.description}</p>}
        </div>
      </div>
    </section>
  );
}

/** Buying: the school's external sales page when it set one, else our checkout; 'Em breve' when not for sale. */
export function NotEnrolledCard({ purchaseUrl, checkoutHref, previewHref }: { purchaseUrl: string | null; checkoutHref: string | null; previewHref: string | null }) {
  return (
    <section className="flex flex-col gap-4 rounded-2xl border border-amber-200 bg-amber-50 p-5 sm:flex-row sm:items-center" data-testid="not-enrolled">
      <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-amber-100 text-amber-700">
        <Lock className="size-5" aria-hidden="true" />
      </span>
      <div className="min-w-0 flex-1">
        <h2 className="font-semibold text-amber-950">Você ainda não está matriculado neste curso</h2>
        <p className="text-sm text-amber-900/80">Adquira o curso para liberar todas as aulas{previewHref ? ', ou assista às aulas gratuitas.' : '.'}</p>
      </div>
      <div className="flex flex-wrap gap-2">
        {previewHref && (
          <Button asChild variant="outline">
            <Link to={previewHref}>
              <PlayCircle aria-hidden="true" />
              Ver Aulas Gratuitas
            </Link>
          </Button>
        )}
        {purchaseUrl ? (
          <Button asChild>
            <a href={purchaseUrl} target="_blank" rel="noopener noreferrer">
              <ShoppingCart aria-hidden="true" />
              Comprar Agora
            </a>
          </Button>
        ) : checkoutHref ? (
          <Button asChild>
            <Link to={checkoutHref}>
              <ShoppingCart aria-hidden="true" />
              Comprar Agora
            </Link>
          </Button>
        ) : (
          <Button disabled>Em breve</Button>
        )}
      </div>
    </section>
  );
}

export function EnrollmentNotice({ kind }: { kind: 'paused' | 'expired' }) {
  return (
    <section role="status" className="flex items-center gap-3 rounded-2xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-950">
      <Lock className="size-5 shrink-0 text-amber-700" aria-hidden="true" />
      {kind === 'paused'
        ? 'Sua matrícula neste curso está pausada. Fale com sua escola para retomar o acesso às aulas.'
        : 'Sua matrícula neste curso expirou. Fale com sua escola para renovar o acesso às aulas.'}
    </section>
  );
}

/** Before the turma's start (issue 40): the date, and why no lesson opens yet (the server refuses them). */
export function TurmaStartCard({ turma }: { turma: EnrollmentTurma }) {
  return (
    <section role="status" className="flex items-center gap-3 rounded-2xl border border-sky-200 bg-sky-50 p-4 text-sky-950 sm:p-5" data-testid="turma-start">
      <CalendarClock className="size-6 shrink-0 text-sky-700" aria-hidden="true" />
      <div className="min-w-0">
        <h2 className="font-semibold">{turmaStartsText(turma)}</h2>
        <p className="text-sm text-sky-900/80">
          {turma.name} · as aulas abrem para toda a turma no primeiro dia.
        </p>
      </div>
    </section>
  );
}

export function CourseProgressCard({ progress, resumeHref, started }: { progress: ProgressSummary; resumeHref: string | null; started: boolean }) {
  return (
    <section className="flex flex-col gap-4 rounded-2xl border border-border bg-white p-5 shadow-sm sm:flex-row sm:items-center" data-testid="course-progress-card">
      <div className="min-w-0 flex-1">
        <div className="flex items-center justify-between text-sm font-medium">
          <span>Seu progresso</span>
          <span>{progress.percent}%</span>
        </div>
        <ProgressBar value={progress.percent} className="mt-2" label="Progresso no curso" />
        <p className="mt-1.5 text-xs text-muted-foreground">
          {progress.completed} de {progress.total} aulas completas
        </p>
      </div>
      {resumeHref && (
        <Button asChild size="lg">
          <Link to={resumeHref}>
            <PlayCircle aria-hidden="true" />
            {started ? 'Continuar curso' : 'Começar curso'}
          </Link>
        </Button>
      )}
    </section>
  );
}

function lessonCount(n: number) {
  return `${n} ${n === 1 ? 'aula' : 'aulas'}`;
}

export function ModuleCard({
  module,
  number,
  courseId,
  progress,
  lockedUntil = null,
  turmaDate = null,
}: {
  module: OutlineModule;
  number: number;
  courseId: string;
  progress: readonly ProgressRow[] | null;
  /** Not released yet for this student (drip release): only its preview lessons open. */
  lockedUntil?: Date | null;
  /** The student's turma calendar's date for this module ('Libera em 12/04'). */
  turmaDate?: string | null;
}) {
  const first = lockedUntil ? module.lessons.find((l) => l.is_preview) : module.lessons[0];
  const release = lockedUntil ? lockedModuleText(lockedUntil, turmaDate) : null;
  const done = progress ? module.lessons.filter((l) => progress.some((p) => p.lesson_id === l.id && p.completed_at)).length : 0;
  const complete = progress !== null && module.lessons.length > 0 && done === module.lessons.length;
  const body = (
    <>
      <div className="relative aspect-[4/3] overflow-hidden bg-muted">
        {module.thumbnail_url ? (
          <StorageImage
            src={module.thumbnail_url}
            sizes={MODULE_GRID_SIZES}
            className="size-full object-cover transition-transform duration-300 group-hover:scale-[1.04]"
          />
        ) : (
          <div className="flex size-full flex-col items-center justify-center gap-1 bg-gradient-to-br from-slate-800 to-slate-950 text-white">
            <Layers className="size-7 text-white/60" aria-hidden="true" />
            <span className="text-lg font-bold tracking-tight">Módulo {number}</span>
          </div>
        )}
        {complete && (
          <span className="absolute top-2 right-2 inline-flex items-center gap-1 rounded-full bg-green-600 px-2 py-0.5 text-xs font-medium text-white">
            <CheckCircle2 className="size-3.5" aria-hidden="true" /> Concluído
          </span>
        )}
        {release && (
          <span aria-hidden="true" className="absolute inset-0 bg-slate-950/40">
            <span className="absolute top-2 right-2 inline-flex items-center gap-1 rounded-full bg-slate-950/80 px-2 py-0.5 text-xs font-medium text-white">
              <Lock className="size-3.5" /> Em breve
            </span>
          </span>
        )}
        {first && !release && (
          <span aria-hidden="true" className="absolute inset-0 flex items-center justify-center bg-slate-950/0 opacity-0 transition-all group-hover:bg-slate-950/35 group-hover:opacity-100">
            <PlayCircle className="size-12 text-white drop-shadow" />
          </span>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-1.5 p-4">
        <p className="text-xs font-medium text-primary">Módulo {number}</p>
        <h3 className="leading-snug font-semibold">{module.title}</h3>
        {module.description && <p className="line-clamp-2 text-sm text-muted-foreground">{module.description}</p>}
        {release && (
          <p className="inline-flex items-center gap-1 text-xs font-semibold text-amber-800" data-testid="module-release">
            <Lock className="size-3.5 shrink-0" aria-hidden="true" />
            {release}
          </p>
        )}
        <p className="mt-auto pt-2 text-xs text-muted-foreground">
          {lessonCount(module.lessons.length)}
          {progress && module.lessons.length > 0 ? ` · ${done} concluídas` : ''}
        </p>
      </div>
    </>
  );
  const classes = cn(
    'group flex flex-col overflow-hidden rounded-2xl border border-border bg-white text-left shadow-sm transition-all duration-200',
    first ? 'hover:-translate-y-0.5 hover:shadow-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary' : !release && 'opacity-70',
  );
  return first ? (
    <Link
      to={`/course/${courseId}/lesson/${first.id}`}
      className={classes}
      data-testid="module-card"
      aria-label={`Módulo ${number}: ${module.title} (${lessonCount(module.lessons.length)})${release ? ` · ${release}` : ''}`}
    >
      {body}
    </Link>
  ) : (
    <div className={classes} data-testid="module-card">
      {body}
    </div>
  );
}

export function ModulesSection({
  course,
  progress,
  locks = new Map(),
  turma = null,
}: {
  course: CourseDetail;
  progress: readonly ProgressRow[] | null;
  /** Modules not released yet for this student, with their release moment (src/concepts/release.ts). */
  locks?: ReadonlyMap<string, Date>;
  /** The student's turma, whose calendar may date a module. */
  turma?: EnrollmentTurma | null;
}) {
  const lessons = course.modules.reduce((n, m) => n + m.lessons.length, 0);
  return (
    <section aria-labelledby="modulos" className="grid gap-4">
      <div>
        <h2 id="modulos" className="text-xl font-bold tracking-tight">
          Módulos do Curso
        </h2>
        <p className="text-sm text-muted-foreground" data-testid="module-counts">
          {course.modules.length} {course.modules.length === 1 ? 'módulo' : 'módulos'} · {lessonCount(lessons)}
        </p>
      </div>
      {course.modules.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-2xl border border-dashed border-border bg-white px-6 py-14 text-center">
          <Layers className="size-8 text-muted-foreground" aria-hidden="true" />
          <h3 className="font-semibold">Nenhum módulo disponível ainda</h3>
          <p className="text-sm text-muted-foreground">O conteúdo deste curso está sendo preparado</p>
        </div>
      ) : (
        <div className="grid grid-cols-1 gap-5 min-[480px]:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {course.modules.map((m, i) => (
            <ModuleCard key={m.id} module={m} number={i + 1} courseId={course.id} progress={progress} lockedUntil={locks.get(m.id) ?? null} turmaDate={turmaModuleDate(turma, m.id)} />
          ))}
        </div>
      )}
    </section>
  );
}

export function CourseSkeleton() {
  return (
    <div data-testid="course-skeleton">
      <Skeleton className="h-56 rounded-none sm:h-72" />
      <div className="mx-auto grid w-full max-w-7xl gap-5 px-4 py-8 sm:px-6">
        <Skeleton className="h-7 w-56" />
        <div className="grid grid-cols-1 gap-5 min-[480px]:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="aspect-[4/5] rounded-2xl" />
          ))}
        </div>
      </div>
    </div>
  );
}

import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { BookOpen, Lock, PlayCircle, ShoppingCart } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Skeleton } from '@/components/ui/skeleton';
import { StorageImage } from '@/components/ui/storage-image';
import { cn } from '@/utils/cn';
import type { CourseCardModel } from '../lib/progress';

/** A card of the home grid (1 column, 2 from sm, 3 from lg, in max-w-7xl with px-4 / sm:px-6 and gap-5). */
const CARD_GRID_SIZES = '(min-width: 1280px) 398px, (min-width: 1024px) calc((100vw - 88px) / 3), (min-width: 640px) calc((100vw - 68px) / 2), calc(100vw - 32px)';

export function CourseThumbnail({ src, position, className }: { src: string | null; position: string; className?: string }) {
  return src ? (
    <StorageImage
      src={src}
      sizes={CARD_GRID_SIZES}
      className={cn('size-full object-cover transition-transform duration-300 group-hover:scale-[1.04]', className)}
      style={{ objectPosition: position || '50% 50%' }}
    />
  ) : (
    <div className={cn('flex size-full items-center justify-center bg-gradient-to-br from-primary/80 to-secondary/80', className)}>
      <BookOpen className="size-10 text-white/80" aria-hidden="true" />
    </div>
  );
}

function lessonsLabel(n: number) {
  return `${n} ${n === 1 ? 'aula' : 'aulas'}`;
}

/** `action`: an extra button composed by the page (e.g. 'Baixar certificado'), above the card's link;
 * `note`: a line under the progress composed by the page (e.g. the course's quizzes). */
export function CourseCard({ model, action, note }: { model: CourseCardModel; action?: ReactNode; note?: ReactNode }) {
  const { course, hasAccess, enrolled, access, progress, firstPreviewLessonId, purchaseHref, purchaseExternal, turmaStart } = model;
  const locked = !hasAccess;
  const canBuy = locked && access !== 'paused';
  return (
    <article
      data-testid="course-card"
      data-course-id={course.id}
      className="group relative flex flex-col overflow-hidden rounded-2xl border border-border bg-white shadow-sm transition-all duration-200 focus-within:ring-2 focus-within:ring-primary/40 hover:-translate-y-0.5 hover:shadow-lg"
    >
      <div className="relative aspect-video overflow-hidden bg-muted">
        <CourseThumbnail src={course.thumbnail_url} position={course.thumbnail_position} />
        {locked && (
          <div className="absolute inset-0 flex flex-col items-center justify-center gap-2 bg-slate-950/60 text-white backdrop-blur-[2px]">
            <span className="flex size-11 items-center justify-center rounded-full bg-white/15 ring-1 ring-white/30">
              <Lock className="size-5" aria-hidden="true" />
            </span>
            <span className="text-sm font-semibold tracking-wide">Curso Bloqueado</span>
          </div>
        )}
        <div className="absolute top-3 left-3 flex flex-wrap gap-1.5">
          {access === 'paused' && <Badge variant="warning">Matrícula pausada</Badge>}
          {access === 'expired' && <Badge variant="destructive">Matrícula expirada</Badge>}
          {turmaStart && (
            <Badge variant="warning" data-testid="turma-start">
              {turmaStart}
            </Badge>
          )}
          {hasAccess && enrolled && progress.total > 0 && progress.completed === progress.total && <Badge variant="success">Concluído</Badge>}
        </div>
      </div>
      <div className="flex flex-1 flex-col gap-3 p-4 sm:p-5">
        <div className="grid gap-1.5">
          <h3 className="text-base leading-snug font-semibold">
            <Link to={`/course/${course.id}`} className="outline-none after:absolute after:inset-0 after:content-[''] hover:text-primary">
              {course.title}
            </Link>
          </h3>
          {course.description && <p className="line-clamp-2 text-sm text-muted-foreground">{course.description}</p>}
        </div>
        <div className="mt-auto grid gap-3">
          {enrolled && hasAccess ? (
            <div className="grid gap-1.5" data-testid="course-progress">
              <div className="flex items-center justify-between text-xs font-medium">
                <span className="text-muted-foreground">Progresso</span>
                <span className="text-foreground">{progress.percent}%</span>
              </div>
              <ProgressBar value={progress.percent} label={`Progresso em ${course.title}`} />
              <p className="text-xs text-muted-foreground">
                {progress.completed} de {progress.total} aulas completas
              </p>
              {note}
            </div>
          ) : (
            <p className="text-xs text-muted-foreground">{lessonsLabel(progress.total)}</p>
          )}
          {action && <div className="relative z-10 grid">{action}</div>}
          {locked && (
            <div className="relative z-10 flex flex-wrap gap-2">
              {canBuy &&
                (purchaseExternal ? (
                  <Button asChild size="sm" className="flex-1">
                    <a href={purchaseHref} target="_blank" rel="noopener noreferrer">
                      <ShoppingCart aria-hidden="true" />
                      Comprar Curso
                    </a>
                  </Button>
                ) : (
                  <Button asChild size="sm" className="flex-1">
                    <Link to={purchaseHref}>
                      <ShoppingCart aria-hidden="true" />
                      Comprar Curso
                    </Link>
                  </Button>
                ))}
              {firstPreviewLessonId && (
                <Button asChild size="sm" variant="outline" className="flex-1">
                  <Link to={`/course/${course.id}/lesson/${firstPreviewLessonId}`}>
                    <PlayCircle aria-hidden="true" />
                    Ver Aulas Gratuitas
                  </Link>
                </Button>
              )}
              {access === 'paused' && <p className="w-full text-xs text-muted-foreground">Sua matrícula está pausada. Fale com sua escola para retomar.</p>}
            </div>
          )}
        </div>
      </div>
    </article>
  );
}

export function CourseCardSkeleton() {
  return (
    <div className="overflow-hidden rounded-2xl border border-border bg-white">
      <Skeleton className="aspect-video rounded-none" />
      <div className="grid gap-3 p-5">
        <Skeleton className="h-5 w-3/4" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-2/3" />
        <Skeleton className="mt-2 h-2 w-full" />
      </div>
    </div>
  );
}

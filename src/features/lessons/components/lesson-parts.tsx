import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router-dom';
import { ArrowLeft, CalendarClock, Check, ChevronLeft, ChevronRight, ExternalLink, FileText, Link2, Lock, Send, Sheet as SheetIcon, Presentation, File, Video } from 'lucide-react';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { ProgressRing } from '@/components/ui/progress-ring';
import { Skeleton } from '@/components/ui/skeleton';
import { StarRating } from '@/components/ui/star-rating';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { Textarea } from '@/components/ui/textarea';
import { formatDate } from '@/lib/format';
import { availableOnText } from '@/lib/release';
import { cn } from '@/lib/utils';
import { useAddComment, useOpenMaterial, useRateLesson } from '../api/hooks';
import type { LessonComment, LessonMaterial, MaterialType } from '../api/queries';

// Its own chunk (marked, DOMPurify): the page paints its video without waiting for it.
const LessonContent = lazy(() => import('./lesson-content'));

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

export function CompleteButton({ completed, pending, onComplete }: { completed: boolean; pending: boolean; onComplete: () => void }) {
  return (
    <div className="pointer-events-none fixed right-4 bottom-4 z-30 sm:right-6 sm:bottom-6">
      <Button
        size="lg"
        onClick={onComplete}
        disabled={completed || pending}
        className={cn(
          'pointer-events-auto rounded-full shadow-xl shadow-black/30 disabled:opacity-100',
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

const MATERIAL_ICON: Record<MaterialType, typeof FileText> = {
  PDF: FileText,
  SLIDE: Presentation,
  SHEET: SheetIcon,
  LINK: Link2,
  OTHER: File,
  VIDEO: Video,
};

function MaterialItem({ material }: { material: LessonMaterial }) {
  const open = useOpenMaterial();
  const Icon = MATERIAL_ICON[material.type] ?? File;
  const inner = (
    <>
      <span aria-hidden="true" className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/15 text-primary-on-dark">
        <Icon className="size-5" />
      </span>
      <span className="min-w-0 flex-1">
        <span className="block truncate text-sm font-medium text-slate-100">{material.title}</span>
        <span className="text-xs text-slate-400">{material.type}</span>
      </span>
      <ExternalLink className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
    </>
  );
  const cls = 'flex w-full cursor-pointer items-center gap-3 rounded-xl border border-white/10 bg-white/5 p-3 text-left transition-colors hover:bg-white/10 disabled:opacity-60';
  if (material.url) {
    return (
      <a href={material.url} target="_blank" rel="noopener noreferrer" className={cls} data-testid="material">
        {inner}
      </a>
    );
  }
  return (
    <button
      type="button"
      className={cls}
      disabled={open.isPending}
      data-testid="material"
      onClick={() => {
        // Open the tab during the click (popup blockers), then point it at the signed URL.
        const tab = window.open('about:blank', '_blank');
        if (tab) tab.opener = null;
        open.mutate({ path: material.file_path!, tab });
      }}
    >
      {inner}
    </button>
  );
}

export function LessonTabs({ content, materials }: { content: string | null; materials: LessonMaterial[] }) {
  const tab = 'text-slate-400 hover:text-white data-[state=active]:bg-slate-700! data-[state=active]:text-white!';
  return (
    <Tabs defaultValue="conteudo">
      <TabsList className="w-full bg-white/5 sm:w-auto">
        <TabsTrigger value="conteudo" className={tab}>
          Conteúdo
        </TabsTrigger>
        <TabsTrigger value="materiais" className={tab}>
          Materiais{materials.length > 0 ? ` (${materials.length})` : ''}
        </TabsTrigger>
      </TabsList>
      <TabsContent value="conteudo">
        {content?.trim() ? (
          <Suspense
            fallback={
              <div className="space-y-2" aria-busy="true">
                <Skeleton className="h-4 w-full bg-white/10" />
                <Skeleton className="h-4 w-5/6 bg-white/10" />
                <Skeleton className="h-4 w-2/3 bg-white/10" />
              </div>
            }
          >
            <LessonContent content={content} />
          </Suspense>
        ) : (
          <p className="text-sm text-slate-400">Esta aula não tem conteúdo escrito.</p>
        )}
      </TabsContent>
      <TabsContent value="materiais">
        {materials.length === 0 ? (
          <p className="text-sm text-slate-400">Nenhum material para esta aula.</p>
        ) : (
          <ul className="grid gap-2 sm:grid-cols-2">
            {materials.map((m) => (
              <li key={m.id}>
                <MaterialItem material={m} />
              </li>
            ))}
          </ul>
        )}
      </TabsContent>
    </Tabs>
  );
}

function timeAgo(iso: string): string {
  const diff = Date.now() - new Date(iso).getTime();
  const min = Math.round(diff / 60_000);
  if (min < 1) return 'agora mesmo';
  if (min < 60) return `há ${min} min`;
  const h = Math.round(min / 60);
  if (h < 24) return `há ${h} h`;
  const d = Math.round(h / 24);
  if (d < 30) return `há ${d} ${d === 1 ? 'dia' : 'dias'}`;
  return formatDate(iso);
}

export function Comments({ lessonId, userId, userName, avatarUrl, comments }: { lessonId: string; userId: string; userName: string; avatarUrl?: string | null; comments: LessonComment[] }) {
  const [text, setText] = useState('');
  const add = useAddComment(lessonId, userId);
  const empty = text.trim().length === 0;
  return (
    <section aria-labelledby="comentarios" className="grid gap-4">
      <h2 id="comentarios" className="text-lg font-semibold text-white">
        Comentários <span className="text-sm font-normal text-slate-400">({comments.length})</span>
      </h2>
      <form
        className="flex gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (empty || add.isPending) return;
          add.mutate(text.trim(), { onSuccess: () => setText('') });
        }}
      >
        <Avatar name={userName} src={avatarUrl} className="max-sm:hidden" />
        <div className="grid flex-1 gap-2">
          <label htmlFor="novo-comentario" className="sr-only">
            Escreva um comentário
          </label>
          <Textarea
            id="novo-comentario"
            value={text}
            maxLength={2000}
            onChange={(e) => setText(e.target.value)}
            placeholder="Escreva um comentário ou dúvida sobre a aula..."
            className="border-white/10 bg-white/5 text-slate-100 placeholder:text-slate-400"
          />
          <div className="flex justify-end">
            <Button type="submit" disabled={empty || add.isPending}>
              <Send aria-hidden="true" />
              {add.isPending ? 'Enviando...' : 'Comentar'}
            </Button>
          </div>
        </div>
      </form>
      {comments.length === 0 ? (
        <p className="text-sm text-slate-400">Seja o primeiro a comentar.</p>
      ) : (
        <ul className="grid gap-4" data-testid="comments">
          {comments.map((c) => (
            <li key={c.id} className="flex gap-3" data-testid="comment">
              <Avatar name={c.author_name || 'Aluno'} src={c.author_avatar_url} />
              <div className="min-w-0 flex-1 rounded-xl bg-white/5 px-4 py-3">
                <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
                  <span className="font-semibold text-slate-100">{c.author_name || 'Aluno'}</span>
                  <time dateTime={c.created_at} title={formatDate(c.created_at)} className="text-xs text-slate-400">
                    {timeAgo(c.created_at)}
                  </time>
                </p>
                <p className="mt-1 text-sm break-words whitespace-pre-line text-slate-300">{c.comment}</p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
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

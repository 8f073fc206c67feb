// A question's statement (Markdown through the SPEC §5 allow-list, as lesson content) and its image,
// signed through sign-lesson-file like the lesson's materials.
import { useMemo } from 'react';
import { ImageOff } from 'lucide-react';
import { Skeleton } from '@/components/ui/skeleton';
import { renderMarkdown } from '@/utils/sanitize';
import { cn } from '@/utils/cn';
import { useQuizImage } from '../../api/hooks';

export function QuizStatement({ id, statement, className }: { id?: string; statement: string; className?: string }) {
  const html = useMemo(() => renderMarkdown(statement), [statement]);
  return (
    // Rendered through src/utils/sanitize.ts (allow-list of SPEC §5).
    <div
      id={id}
      className={cn(
        'prose-content text-[15px] text-slate-100 [&_a]:text-sky-400 [&_code]:bg-white/10 [&_pre]:bg-black/40 [&_h1]:text-white [&_h2]:text-white [&_h3]:text-white [&_img]:max-h-80',
        className,
      )}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

export function QuizImage({ path, alt }: { path: string; alt: string }) {
  const url = useQuizImage(path);
  if (url.isPending) return <Skeleton className="aspect-video w-full max-w-md bg-white/10" data-testid="quiz-image-loading" />;
  if (url.isError)
    return (
      <p className="flex items-center gap-2 text-sm text-slate-400">
        <ImageOff className="size-4" aria-hidden="true" />
        Não foi possível carregar a imagem.
      </p>
    );
  return <img src={url.data} alt={alt} loading="lazy" className="max-h-80 w-auto max-w-full rounded-lg border border-white/10 bg-white object-contain" />;
}

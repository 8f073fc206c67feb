// The lesson's written content, rendered from Markdown through the SPEC §5 allow-list. Its own chunk
// (marked and DOMPurify, ~25 KB gzip): the lesson page paints its video first, and the route's data
// loader starts this download alongside the lesson data (src/app/route-prefetch.ts).
import { useMemo } from 'react';
import { renderMarkdown } from '@/utils/sanitize';

export default function LessonContent({ content }: { content: string }) {
  const html = useMemo(() => renderMarkdown(content), [content]);
  if (!html) return <p className="text-sm text-slate-400">Esta aula não tem conteúdo escrito.</p>;
  return (
    // Rendered through src/utils/sanitize.ts (allow-list of SPEC §5).
    <div
      className="prose-content text-[15px] text-slate-200 [&_a]:text-sky-400 [&_blockquote]:border-white/20 [&_blockquote]:text-slate-400 [&_code]:bg-white/10 [&_pre]:bg-black/40 [&_h1]:text-white [&_h2]:text-white [&_h3]:text-white"
      data-testid="lesson-content"
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

// A comment's text: plain text, with http(s) addresses as links that open in a new tab and pass no
// ranking credit (rel="nofollow noopener"). Never HTML: anything else, javascript: included, stays text.
// `tone`: the lesson page's dark panel (default) or the admin area's white cards.
import { cn } from '@/lib/utils';
import { linkParts } from '../lib/thread';

export type CommentTone = 'dark' | 'light';

export function CommentText({ text, tone = 'dark' }: { text: string; tone?: CommentTone }) {
  const light = tone === 'light';
  return (
    <p className={cn('mt-1 text-sm whitespace-pre-line [overflow-wrap:anywhere]', light ? 'text-foreground' : 'text-slate-300')}>
      {linkParts(text).map((part, i) =>
        part.kind === 'link' ? (
          <a
            key={i}
            href={part.href}
            target="_blank"
            rel="nofollow noopener"
            className={cn('underline underline-offset-2', light ? 'text-primary hover:text-primary/80' : 'text-sky-300 hover:text-sky-200')}
          >
            {part.text}
          </a>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </p>
  );
}

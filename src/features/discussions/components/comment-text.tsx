// A comment's text: plain text, with http(s) addresses as links that show the host they really open
// (src/concepts/user-text.ts), in a new tab, passing no ranking credit nor the page's address
// (rel="noopener noreferrer nofollow ugc"). Never HTML: anything else, javascript: included, stays text.
// The paragraph takes its direction from its first letter (dir="auto": an Arabic or Hebrew comment
// reads right to left); each link is isolated left to right (dir="ltr" is unicode-bidi: isolate), so
// no text around it can reorder what it shows.
// `tone`: the lesson page's dark panel (default) or the admin area's white cards.
import { linkParts } from '@/concepts/user-text';
import { cn } from '@/utils/cn';

export type CommentTone = 'dark' | 'light';

export function CommentText({ text, tone = 'dark' }: { text: string; tone?: CommentTone }) {
  const light = tone === 'light';
  return (
    <p dir="auto" className={cn('mt-1 text-sm whitespace-pre-line [overflow-wrap:anywhere]', light ? 'text-foreground' : 'text-slate-300')}>
      {linkParts(text).map((part, i) =>
        part.kind === 'link' ? (
          <a
            key={i}
            href={part.href}
            dir="ltr"
            target="_blank"
            rel="noopener noreferrer nofollow ugc"
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

// A comment's text: plain text, with http(s) addresses as links that open in a new tab and pass no
// ranking credit (rel="nofollow noopener"). Never HTML: anything else, javascript: included, stays text.
import { linkParts } from '../lib/thread';

export function CommentText({ text }: { text: string }) {
  return (
    <p className="mt-1 text-sm whitespace-pre-line text-slate-300 [overflow-wrap:anywhere]">
      {linkParts(text).map((part, i) =>
        part.kind === 'link' ? (
          <a key={i} href={part.href} target="_blank" rel="nofollow noopener" className="text-sky-300 underline underline-offset-2 hover:text-sky-200">
            {part.text}
          </a>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </p>
  );
}

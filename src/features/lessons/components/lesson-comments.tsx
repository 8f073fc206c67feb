// The lesson's comments and the box to add one. A one-field form with its own state: react-hook-form
// (~9 KB) stays off the lesson route. hand-held form: one textarea.
import { useState } from 'react';
import { Send } from 'lucide-react';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';
import { formatDate } from '@/lib/format';
import { useAddComment } from '../api/hooks';
import type { LessonComment } from '../api/queries';

// Its own chunk (marked, DOMPurify): the page paints its video without waiting for it.

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

// The discussion under a lesson (issue 26): the box to ask, then the questions newest first, each
// with the reply staff marked as the answer pinned under it and the other replies in order, one level
// deep. Its own chunk (Radix dialogs): the lesson page paints its video without waiting for it, and
// the comments' request starts with the page's (the route calls useLessonComments).
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { COMMENT_ANCHOR_PREFIX } from '@/concepts/comment-anchor';
import { useAddComment, useLessonComments } from '../api/hooks';
import { buildThreads, type Thread } from '../lib/thread';
import { CommentCard, type CommentViewer } from './comment-card';
import { CommentForm } from './comment-form';

export interface LessonDiscussionProps {
  lessonId: string;
  userId: string;
  userName: string;
  avatarUrl?: string | null;
  /** Staff of the school (or the super admin) viewing the lesson: moderation actions. */
  isStaff: boolean;
}

function ThreadItem({ thread, viewer }: { thread: Thread; viewer: CommentViewer }) {
  const [replying, setReplying] = useState(false);
  const add = useAddComment(viewer.lessonId, viewer.userId);
  const { question, answer, replies } = thread;
  const name = question.author_name || 'Aluno';
  return (
    <li className="grid gap-3">
      <CommentCard comment={question} viewer={viewer} onReply={() => setReplying((r) => !r)} />
      {(answer || replies.length > 0 || replying) && (
        <div className="ml-6 grid gap-3 border-l border-white/10 pl-3 sm:ml-12 sm:pl-4">
          {answer && (
            <div data-testid="pinned-answer">
              <CommentCard comment={answer} viewer={viewer} reply pinned />
            </div>
          )}
          {replies.length > 0 && (
            <ul className="grid gap-3" aria-label={`Respostas ao comentário de ${name}`}>
              {replies.map((r) => (
                <li key={r.id}>
                  <CommentCard comment={r} viewer={viewer} reply />
                </li>
              ))}
            </ul>
          )}
          {replying && (
            <CommentForm
              label={`Responder a ${name}`}
              placeholder="Escreva sua resposta..."
              submitLabel="Responder"
              pending={add.isPending}
              autoFocus
              onCancel={() => setReplying(false)}
              onSubmit={(text, done) =>
                add.mutate(
                  { comment: text, parentId: question.id },
                  {
                    onSuccess: () => {
                      done();
                      setReplying(false);
                    },
                  },
                )
              }
            />
          )}
        </div>
      )}
    </li>
  );
}

export default function LessonDiscussion({ lessonId, userId, userName, avatarUrl, isStaff }: LessonDiscussionProps) {
  const comments = useLessonComments(lessonId, userId);
  const add = useAddComment(lessonId, userId);
  const threads = buildThreads(comments.data ?? []);
  const shown = threads.reduce((n, t) => n + 1 + t.replies.length + (t.answer ? 1 : 0), 0);
  const viewer: CommentViewer = { lessonId, userId, isStaff };
  // A notification opens the lesson at a comment (src/concepts/comment-anchor.ts): scroll to it once the list is drawn.
  const { hash } = useLocation();
  const loaded = !!comments.data;
  useEffect(() => {
    if (!loaded || !hash.startsWith(`#${COMMENT_ANCHOR_PREFIX}`)) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView({ block: 'center' });
  }, [loaded, hash]);
  return (
    <section aria-labelledby="comentarios" className="grid gap-4">
      <h2 id="comentarios" className="text-lg font-semibold text-white">
        Comentários {comments.data && <span className="text-sm font-normal text-slate-400">({shown})</span>}
      </h2>
      <div className="flex gap-3">
        <Avatar name={userName} src={avatarUrl} className="max-sm:hidden" />
        <CommentForm
          label="Escreva um comentário"
          labelHidden
          placeholder="Escreva um comentário ou dúvida sobre a aula..."
          submitLabel="Comentar"
          pending={add.isPending}
          onSubmit={(text, done) => add.mutate({ comment: text }, { onSuccess: done })}
        />
      </div>
      {comments.isError ? (
        <div className="flex flex-wrap items-center gap-3 text-sm text-slate-300">
          <p>Não foi possível carregar os comentários.</p>
          <Button type="button" variant="outline" size="sm" onClick={() => void comments.refetch()}>
            Tentar novamente
          </Button>
        </div>
      ) : comments.isPending ? (
        <div className="h-24 animate-pulse rounded-xl bg-white/5" aria-busy="true" aria-label="Carregando comentários" />
      ) : threads.length === 0 ? (
        <p className="text-sm text-slate-400">Seja o primeiro a comentar.</p>
      ) : (
        <ul className="grid gap-6" data-testid="comments">
          {threads.map((t) => (
            <ThreadItem key={t.question.id} thread={t} viewer={viewer} />
          ))}
        </ul>
      )}
    </section>
  );
}

// One comment of the discussion: author, staff badge, time, "editado", "Aguardando aprovação" and (to
// staff) "Oculto" with its reason; the text with its links; and the actions this reader may take:
// Responder (a question), Editar (the author, first 15 minutes), Excluir (the author or staff), and
// for staff Marcar como resposta (a reply), Ocultar / Mostrar and Aprovar.
import { useEffect, useState } from 'react';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { commentAnchorId } from '@/concepts/comment-anchor';
import { formatDate } from '@/utils/format';
import { cn } from '@/utils/cn';
import { useDeleteComment, useEditComment, useModerateComment } from '../api/hooks';
import type { DiscussionComment } from '../api/queries';
import { canEditUntil, ROLE_LABELS } from '../lib/thread';
import { CommentForm } from './comment-form';
import { CommentText } from './comment-text';
import { HideDialog } from './hide-dialog';

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

/** Whether the author may still edit: true until 15 minutes after posting, then false (a timer flips it). */
function useEditWindow(createdAt: string, own: boolean): boolean {
  const until = canEditUntil({ created_at: createdAt });
  // The created_at whose window has closed (a comment keeps its created_at; an edit does not change it).
  const [closedFor, setClosedFor] = useState<string | null>(() => (Date.now() >= until ? createdAt : null));
  useEffect(() => {
    if (!own) return;
    const timer = setTimeout(() => setClosedFor(createdAt), Math.max(0, until - Date.now()));
    return () => clearTimeout(timer);
  }, [own, until, createdAt]);
  return own && closedFor !== createdAt;
}

export interface CommentViewer {
  lessonId: string;
  userId: string;
  isStaff: boolean;
}

const actionClass = 'h-7 px-2 text-xs text-slate-300 hover:bg-white/10 hover:text-white';

export function CommentCard({ comment: c, viewer, reply, pinned, onReply }: { comment: DiscussionComment; viewer: CommentViewer; reply?: boolean; pinned?: boolean; onReply?: () => void }) {
  const own = c.user_id === viewer.userId;
  const editable = useEditWindow(c.created_at, own);
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [hiding, setHiding] = useState(false);
  const edit = useEditComment(viewer.lessonId, viewer.userId);
  const remove = useDeleteComment(viewer.lessonId, viewer.userId);
  const moderate = useModerateComment(viewer.lessonId);
  const name = c.author_name || 'Aluno';
  const visible = c.status === 'published' && !c.hidden_at;
  const what = reply ? 'resposta' : 'comentário';

  return (
    <article
      id={commentAnchorId(c.id)}
      aria-label={`${reply ? 'Resposta' : 'Comentário'} de ${name}`}
      className={cn('flex scroll-mt-24 gap-3', c.hidden_at && 'opacity-70')}
      data-testid={reply ? 'reply' : 'comment'}
    >
      <Avatar name={name} src={c.author_avatar_url} className={reply ? 'size-8' : undefined} />
      <div className={cn('min-w-0 flex-1 rounded-xl px-4 py-3', pinned ? 'border border-emerald-400/40 bg-emerald-400/10' : 'bg-white/5')}>
        {pinned && <p className="mb-1 text-xs font-semibold text-emerald-300">{c.author_role ? 'Resposta da equipe' : 'Resposta marcada pela equipe'}</p>}
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
          <bdi className="font-semibold text-slate-100 [overflow-wrap:anywhere]">{name}</bdi>
          {c.author_role && (
            <span className="rounded-full bg-sky-400/15 px-2 py-0.5 text-xs font-medium text-sky-200" data-testid="staff-badge">
              {ROLE_LABELS[c.author_role]}
            </span>
          )}
          <time dateTime={c.created_at} title={formatDate(c.created_at)} className="text-xs text-slate-400">
            {timeAgo(c.created_at)}
          </time>
          {c.edited_at && <span className="text-xs text-slate-400">(editado)</span>}
          {c.status === 'pending' && <span className="rounded-full bg-amber-400/15 px-2 py-0.5 text-xs font-medium text-amber-200">Aguardando aprovação</span>}
          {c.hidden_at && <span className="rounded-full bg-red-400/15 px-2 py-0.5 text-xs font-medium text-red-200">Oculto para os alunos</span>}
        </p>
        {c.hidden_at && c.lesson_comment_moderation?.hidden_reason && (
          <p className="mt-1 text-xs text-red-200/80">Motivo: {c.lesson_comment_moderation.hidden_reason}</p>
        )}
        {editing ? (
          <CommentForm
            className="mt-2"
            label={`Editar ${what}`}
            initial={c.comment}
            submitLabel="Salvar"
            pendingLabel="Salvando..."
            pending={edit.isPending}
            autoFocus
            onCancel={() => setEditing(false)}
            onSubmit={(text) => edit.mutate({ id: c.id, comment: text }, { onSuccess: () => setEditing(false) })}
          />
        ) : (
          <CommentText text={c.comment} />
        )}
        {!editing && (
          <div className="mt-2 -ml-2 flex flex-wrap gap-1" role="group" aria-label={`Ações do ${what} de ${name}`}>
            {onReply && visible && (
              <Button type="button" variant="ghost" size="sm" className={actionClass} onClick={onReply}>
                Responder
              </Button>
            )}
            {own && editable && (
              <Button type="button" variant="ghost" size="sm" className={actionClass} onClick={() => setEditing(true)}>
                Editar
              </Button>
            )}
            {viewer.isStaff && c.status === 'pending' && (
              <Button type="button" variant="ghost" size="sm" className={actionClass} disabled={moderate.approve.isPending} onClick={() => moderate.approve.mutate(c.id)}>
                Aprovar
              </Button>
            )}
            {viewer.isStaff && reply && visible && (
              <Button
                type="button"
                variant="ghost"
                size="sm"
                className={actionClass}
                disabled={moderate.mark.isPending}
                onClick={() => moderate.mark.mutate({ id: c.id, marked: !c.marked_answer_at })}
              >
                {c.marked_answer_at ? 'Desmarcar resposta' : 'Marcar como resposta'}
              </Button>
            )}
            {viewer.isStaff &&
              (c.hidden_at ? (
                <Button type="button" variant="ghost" size="sm" className={actionClass} disabled={moderate.unhide.isPending} onClick={() => moderate.unhide.mutate(c.id)}>
                  Mostrar para os alunos
                </Button>
              ) : (
                <Button type="button" variant="ghost" size="sm" className={actionClass} onClick={() => setHiding(true)}>
                  Ocultar
                </Button>
              ))}
            {(own || viewer.isStaff) && (
              <Button type="button" variant="ghost" size="sm" className={cn(actionClass, 'text-red-300 hover:text-red-200')} onClick={() => setConfirmDelete(true)}>
                Excluir
              </Button>
            )}
          </div>
        )}
      </div>
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={`Excluir ${what}?`}
        description={reply ? 'A resposta será removida para todos. Esta ação não pode ser desfeita.' : 'O comentário e as respostas dele serão removidos para todos. Esta ação não pode ser desfeita.'}
        confirmLabel="Excluir"
        pending={remove.isPending}
        onConfirm={() => remove.mutate(c.id, { onSettled: () => setConfirmDelete(false) })}
      />
      {viewer.isStaff && (
        <HideDialog open={hiding} onOpenChange={setHiding} pending={moderate.hide.isPending} onConfirm={(reason) => moderate.hide.mutate({ id: c.id, reason }, { onSuccess: () => setHiding(false) })} />
      )}
    </article>
  );
}

// One comment of "Comentários": author, staff badge, time, course › lesson, the question a reply
// answers, its situation (Pendente, Oculto with the reason, Respondida / Sem resposta, the marked
// answer), the text with its links, and the actions the database allows on it: Responder (a visible
// question: an inline reply as the signed-in staff), Marcar como resposta (a visible reply), Aprovar,
// Ocultar / Mostrar, Excluir (confirmed) and Abrir aula (the lesson at the comment). The hooks are
// the lesson page's (one way to do each thing).
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { CornerDownRight, ExternalLink } from 'lucide-react';
import { Avatar } from '@/components/ui/avatar';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { commentLink } from '@/concepts/comment-anchor';
import { formatDateTime } from '@/utils/format';
import { useSession } from '@/platform/session';
import { withoutBidiControls } from '@/concepts/user-text';
import { cn } from '@/utils/cn';
import type { AdminComment } from '../../api/admin-queries';
import { useAddComment, useDeleteComment, useModerateComment } from '../../api/hooks';
import { ROLE_LABELS } from '../../lib/thread';
import { CommentForm } from '../comment-form';
import { CommentText } from '../comment-text';
import { HideDialog } from '../hide-dialog';

/** Pendente, Oculto, Respondida / Sem resposta (a visible student question), the marked answer, Resposta. */
function statusBadges(c: AdminComment): [string, BadgeVariant][] {
  const visible = c.status === 'published' && !c.hidden_at;
  const badges: [string, BadgeVariant][] = [];
  if (c.status === 'pending') badges.push(['Pendente', 'warning']);
  if (c.hidden_at) badges.push(['Oculto', 'destructive']);
  if (visible && c.answered === true) badges.push(['Respondida', 'success']);
  if (visible && c.answered === false) badges.push(['Sem resposta', 'outline']);
  if (c.marked_answer_at) badges.push([c.author_role ? 'Resposta da equipe' : 'Resposta marcada', 'success']);
  if (c.parent_id) badges.push(['Resposta', 'secondary']);
  return badges;
}

export function AdminCommentItem({ comment: c }: { comment: AdminComment }) {
  const { user } = useSession();
  const userId = user?.id ?? '';
  const reply = !!c.parent_id;
  const visible = c.status === 'published' && !c.hidden_at;
  const [replying, setReplying] = useState(false);
  const [hiding, setHiding] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const add = useAddComment(c.lesson_id, userId);
  const remove = useDeleteComment(c.lesson_id, userId);
  const moderate = useModerateComment(c.lesson_id);
  const what = reply ? 'resposta' : 'comentário';
  const label = `${reply ? 'Resposta' : 'Comentário'} de ${c.author_name}`;
  const badges = statusBadges(c);

  return (
    <li>
      <article
        aria-label={label}
        className={cn(
          'grid min-w-0 gap-3 rounded-xl border border-border bg-white p-4 shadow-xs',
          c.hidden_at && 'bg-slate-50',
        )}
        data-testid="admin-comment"
      >
        <div className="flex min-w-0 items-start gap-3">
          <Avatar name={c.author_name} src={c.author_avatar_url} className="size-10" />
          <div className="grid min-w-0 flex-1 gap-1">
            <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
              <bdi className="font-semibold [overflow-wrap:anywhere]">{c.author_name}</bdi>
              {c.author_role && <Badge variant="secondary">{ROLE_LABELS[c.author_role]}</Badge>}
              <time dateTime={c.created_at} className="text-xs text-muted-foreground">
                {formatDateTime(c.created_at)}
              </time>
              {c.edited_at && <span className="text-xs text-muted-foreground">(editado)</span>}
            </p>
            <p className="text-xs text-muted-foreground [overflow-wrap:anywhere]">
              <span className="sr-only">Aula: </span>
              {c.course_title} › {c.lesson_title}
              {c.turma_name && ` · ${c.turma_name}`}
            </p>
          </div>
        </div>
        {badges.length > 0 && (
          <ul className="flex flex-wrap gap-1.5" aria-label="Situação">
            {badges.map(([text, variant]) => (
              <li key={text}>
                <Badge variant={variant}>{text}</Badge>
              </li>
            ))}
          </ul>
        )}
        {reply && (
          <blockquote className="flex min-w-0 gap-2 rounded-lg border-l-4 border-border bg-muted/60 px-3 py-2 text-xs text-muted-foreground">
            <CornerDownRight aria-hidden="true" className="mt-0.5 size-3.5 shrink-0" />
            <p className="line-clamp-3 min-w-0 [overflow-wrap:anywhere]">
              Em resposta a <strong className="font-medium text-foreground"><bdi>{c.parent_author_name ?? 'Aluno'}</bdi></strong>:{' '}
              <bdi>{withoutBidiControls(c.parent_comment ?? '')}</bdi>
            </p>
          </blockquote>
        )}
        <CommentText text={c.comment} tone="light" />
        {c.hidden_at && (
          <p className="text-xs text-red-700 [overflow-wrap:anywhere]">
            Oculto para os alunos{c.hidden_by_name ? ` por ${c.hidden_by_name}` : ''} em {formatDateTime(c.hidden_at)}
            {c.hidden_reason ? ` · Motivo: ${c.hidden_reason}` : ' · Sem motivo informado'}
          </p>
        )}
        {replying ? (
          <CommentForm
            tone="light"
            label={`Responder a ${c.author_name}`}
            placeholder="Escreva a resposta da equipe..."
            submitLabel="Enviar resposta"
            pending={add.isPending}
            autoFocus
            onCancel={() => setReplying(false)}
            onSubmit={(text) => add.mutate({ comment: text, parentId: c.id }, { onSuccess: () => setReplying(false) })}
          />
        ) : (
          <div className="-ml-2 flex flex-wrap gap-1" role="group" aria-label={`Ações do ${what} de ${c.author_name}`}>
            {!reply && visible && (
              <Button variant="ghost" size="sm" onClick={() => setReplying(true)}>
                Responder
              </Button>
            )}
            {reply && visible && (
              <Button
                variant="ghost"
                size="sm"
                disabled={moderate.mark.isPending}
                onClick={() => moderate.mark.mutate({ id: c.id, marked: !c.marked_answer_at })}
              >
                {c.marked_answer_at ? 'Desmarcar resposta' : 'Marcar como resposta'}
              </Button>
            )}
            {c.status === 'pending' && (
              <Button
                variant="ghost"
                size="sm"
                disabled={moderate.approve.isPending}
                onClick={() => moderate.approve.mutate(c.id)}
              >
                Aprovar
              </Button>
            )}
            {c.hidden_at ? (
              <Button
                variant="ghost"
                size="sm"
                disabled={moderate.unhide.isPending}
                onClick={() => moderate.unhide.mutate(c.id)}
              >
                Mostrar
              </Button>
            ) : (
              <Button variant="ghost" size="sm" onClick={() => setHiding(true)}>
                Ocultar
              </Button>
            )}
            <Button
              variant="ghost"
              size="sm"
              className="text-red-700 hover:text-red-800"
              onClick={() => setConfirmDelete(true)}
            >
              Excluir
            </Button>
            <Button variant="ghost" size="sm" asChild>
              <Link to={commentLink(c.course_id, c.lesson_id, c.id)}>
                <ExternalLink aria-hidden="true" /> Abrir aula
              </Link>
            </Button>
          </div>
        )}
      </article>
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={`Excluir ${what}?`}
        description={
          reply
            ? 'A resposta será removida para todos. Esta ação não pode ser desfeita.'
            : 'O comentário e as respostas dele serão removidos para todos. Esta ação não pode ser desfeita.'
        }
        confirmLabel="Excluir"
        pending={remove.isPending}
        onConfirm={() => remove.mutate(c.id, { onSettled: () => setConfirmDelete(false) })}
      />
      <HideDialog
        open={hiding}
        onOpenChange={setHiding}
        pending={moderate.hide.isPending}
        onConfirm={(reason) => moderate.hide.mutate({ id: c.id, reason }, { onSuccess: () => setHiding(false) })}
      />
    </li>
  );
}

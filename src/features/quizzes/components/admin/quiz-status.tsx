// The quiz's publish state (Rascunho / Publicada / Alterações não publicadas) and its actions: publish
// (the database refuses an incomplete quiz in pt-BR, shown by the one mutation error path), unpublish,
// and delete with every student's attempts.
import { useState } from 'react';
import { Eye, EyeOff, Loader2, Trash2 } from 'lucide-react';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { formatDateTime } from '@/utils/format';
import { useDeleteQuiz, usePublishQuiz, useUnpublishQuiz, type AdminQuiz } from '../../api/admin-hooks';

type QuizStatus = 'draft' | 'published' | 'changed';

/** Draft until published; "changed" when the draft questions moved on after the version in force. */
function quizStatus(quiz: Pick<AdminQuiz, 'published_version_id' | 'published_at' | 'questions_updated_at'>): QuizStatus {
  if (!quiz.published_version_id) return 'draft';
  return quiz.published_at && Date.parse(quiz.questions_updated_at) > Date.parse(quiz.published_at) ? 'changed' : 'published';
}

const STATUS: Record<QuizStatus, { label: string; variant: BadgeVariant; text: string }> = {
  draft: { label: 'Rascunho', variant: 'secondary', text: 'Os alunos ainda não veem esta avaliação.' },
  published: {
    label: 'Publicada',
    variant: 'success',
    text: 'Os alunos só concluem a aula quando são aprovados nesta avaliação.',
  },
  changed: {
    label: 'Alterações não publicadas',
    variant: 'warning',
    text: 'Os alunos fazem a versão publicada; publique de novo para aplicar as alterações nas perguntas. As tentativas já feitas mantêm a nota que tiveram.',
  },
};

export function QuizStatusBar({ quiz }: { quiz: AdminQuiz }) {
  const publish = usePublishQuiz();
  const unpublish = useUnpublishQuiz();
  const remove = useDeleteQuiz();
  const [deleting, setDeleting] = useState(false);
  const status = quizStatus(quiz);
  const busy = publish.isPending || unpublish.isPending;
  return (
    <div className="grid gap-3 rounded-lg border border-border bg-muted/30 p-3 sm:p-4">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm font-medium">Situação:</span>
        <Badge variant={STATUS[status].variant} data-testid="quiz-status">
          {STATUS[status].label}
        </Badge>
        {quiz.published_at && (
          <span className="text-xs text-muted-foreground">Publicada em {formatDateTime(quiz.published_at)}</span>
        )}
      </div>
      <p className="text-sm text-muted-foreground">{STATUS[status].text}</p>
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        {status !== 'published' && (
          <Button type="button" disabled={busy} onClick={() => publish.mutate(quiz.id)}>
            {publish.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Eye aria-hidden="true" />}
            Publicar avaliação
          </Button>
        )}
        {status !== 'draft' && (
          <Button type="button" variant="outline" disabled={busy} onClick={() => unpublish.mutate(quiz.id)}>
            {unpublish.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <EyeOff aria-hidden="true" />}
            Despublicar
          </Button>
        )}
        <Button
          type="button"
          variant="ghost"
          className="text-destructive hover:text-destructive sm:ml-auto"
          onClick={() => setDeleting(true)}
        >
          <Trash2 aria-hidden="true" /> Excluir avaliação
        </Button>
      </div>
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title="Excluir avaliação?"
        description="A avaliação, suas perguntas e as tentativas e notas de todos os alunos serão excluídas. A aula deixa de exigir a aprovação. Esta ação não pode ser desfeita."
        confirmLabel="Excluir avaliação"
        pending={remove.isPending}
        onConfirm={() => remove.mutate(quiz.id, { onSettled: () => setDeleting(false) })}
      />
    </div>
  );
}

// The quiz's draft questions: reordered by drag and drop (pointer or keyboard, announced in pt-BR, as
// the content editor's outline), added, edited, duplicated, deleted, or imported from a CSV.
import { useId, useState } from 'react';
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
} from '@dnd-kit/core';
import { SortableContext, arrayMove, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { FileUp, ListChecks, Plus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import {
  useDeleteQuestion,
  useDuplicateQuestion,
  useReorderQuestions,
  type AdminQuestion,
  type QuizLessonRef,
} from '../../api/admin-hooks';
import { ImportQuestionsDialog } from './import-questions-dialog';
import { QuestionDialog, type QuestionTarget } from './question-dialog';
import { SortableQuestion } from './question-item';

export function QuestionList({
  quizId,
  questions,
  lesson,
}: {
  quizId: string;
  questions: AdminQuestion[];
  lesson: QuizLessonRef;
}) {
  const id = useId();
  const reorder = useReorderQuestions(lesson.lessonId);
  const duplicate = useDuplicateQuestion();
  const remove = useDeleteQuestion();
  const [editing, setEditing] = useState<QuestionTarget | null>(null);
  const [importing, setImporting] = useState(false);
  const [deleting, setDeleting] = useState<{ id: string; number: number } | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  // New questions go after the last one (positions may have gaps after a delete).
  const nextPosition = questions.reduce((max, q) => Math.max(max, q.position + 1), 0);
  const numberOf = (id: string | number) => questions.findIndex((q) => q.id === id) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) =>
      `Pergunta ${numberOf(active.id)} selecionada. Use as setas para mover e Espaço para soltar.`,
    onDragOver: ({ active, over }) =>
      over
        ? `Pergunta ${numberOf(active.id)} na posição ${numberOf(over.id)}.`
        : `Pergunta ${numberOf(active.id)} fora da lista.`,
    onDragEnd: ({ active, over }) =>
      over ? `Pergunta ${numberOf(active.id)} movida para a posição ${numberOf(over.id)}.` : 'Movimento cancelado.',
    onDragCancel: ({ active }) => `Movimento da pergunta ${numberOf(active.id)} cancelado.`,
  };

  function onDragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    const from = questions.findIndex((q) => q.id === active.id);
    const to = questions.findIndex((q) => q.id === over.id);
    if (from < 0 || to < 0) return;
    reorder.mutate({ quizId, questions: arrayMove(questions, from, to) });
  }

  return (
    <section className="grid gap-3" aria-labelledby={`${id}-title`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={`${id}-title`} className="text-base font-semibold">
          Perguntas ({questions.length})
        </h3>
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="outline" size="sm" onClick={() => setImporting(true)}>
            <FileUp aria-hidden="true" /> Importar CSV
          </Button>
          <Button
            type="button"
            size="sm"
            onClick={() => setEditing({ question: null, number: questions.length + 1, position: nextPosition })}
          >
            <Plus aria-hidden="true" /> Adicionar pergunta
          </Button>
        </div>
      </div>
      {questions.length === 0 ? (
        <EmptyState
          icon={ListChecks}
          className="py-8"
          title="Nenhuma pergunta ainda"
          description="Adicione perguntas uma a uma ou importe um arquivo CSV."
        />
      ) : (
        <>
          <p className="text-xs text-muted-foreground">
            Arraste pelas alças (ou foque a alça e use Espaço e as setas) para reordenar as perguntas.
          </p>
          <DndContext
            sensors={sensors}
            collisionDetection={closestCenter}
            onDragEnd={onDragEnd}
            accessibility={{ announcements }}
          >
            <SortableContext items={questions.map((q) => q.id)} strategy={verticalListSortingStrategy}>
              <ol className="grid gap-2" aria-label="Perguntas">
                {questions.map((question, index) => (
                  <SortableQuestion
                    key={question.id}
                    question={question}
                    number={index + 1}
                    onEdit={() => setEditing({ question, number: index + 1, position: question.position })}
                    onDuplicate={() => duplicate.mutate(question.id)}
                    onDelete={() => setDeleting({ id: question.id, number: index + 1 })}
                  />
                ))}
              </ol>
            </SortableContext>
          </DndContext>
        </>
      )}
      {editing && (
        <QuestionDialog target={editing} quizId={quizId} lesson={lesson} onClose={() => setEditing(null)} />
      )}
      {importing && (
        <ImportQuestionsDialog quizId={quizId} startPosition={nextPosition} onClose={() => setImporting(false)} />
      )}
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={`Excluir a pergunta ${deleting?.number ?? ''}?`}
        description="A pergunta sai do rascunho da avaliação. Quem já fez a avaliação mantém a nota; a mudança vale para os alunos quando você publicar de novo."
        confirmLabel="Excluir"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
      />
    </section>
  );
}

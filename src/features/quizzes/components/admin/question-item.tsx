// One question of the quiz editor's list: its drag handle (dnd-kit sortable, as the content editor's
// outline), the statement as students will see it (sanitised Markdown), the image, the options with
// the correct ones marked, the explanation, and its actions (Editar, Duplicar, Excluir).
import { useMemo } from 'react';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { CheckCircle2, Circle, Copy, GripVertical, MoreVertical, Pencil, Trash2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { renderMarkdown } from '@/utils/sanitize';
import { cn } from '@/utils/cn';
import { useQuestionImageUrl, type AdminQuestion } from '../../api/admin-hooks';
import { KIND_LABEL, SCORING_LABEL } from '../../schemas';

/** A question's image in the editor (lesson-materials is private: a signed link). */
export function QuestionImage({ path, className }: { path: string; className?: string }) {
  const url = useQuestionImageUrl(path);
  if (!url.data) return <div className={cn('rounded-md bg-muted', className)} aria-hidden="true" />;
  return <img src={url.data} alt="Imagem da pergunta" className={cn('rounded-md border border-border object-contain', className)} />;
}

export function SortableQuestion({
  question,
  number,
  onEdit,
  onDuplicate,
  onDelete,
}: {
  question: AdminQuestion;
  number: number;
  onEdit: () => void;
  onDuplicate: () => void;
  onDelete: () => void;
}) {
  const { setNodeRef, transform, transition, isDragging, attributes, listeners } = useSortable({ id: question.id });
  const statement = useMemo(() => renderMarkdown(question.statement), [question.statement]);
  const name = `pergunta ${number}`;
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={cn(
        'flex min-w-0 items-start gap-2 rounded-lg border border-border bg-white p-2 sm:p-3',
        isDragging && 'relative z-10 shadow-lg',
      )}
      data-testid="quiz-question"
    >
      <button
        type="button"
        className="flex size-8 shrink-0 cursor-grab touch-none items-center justify-center rounded-md text-muted-foreground hover:bg-muted focus-visible:outline-2 focus-visible:outline-primary active:cursor-grabbing"
        {...attributes}
        {...listeners}
        aria-label={`Arrastar ${name}`}
      >
        <GripVertical aria-hidden="true" className="size-4" />
      </button>
      <div className="grid min-w-0 flex-1 gap-2">
        <div className="flex flex-wrap items-center gap-1.5">
          <span className="text-sm font-semibold">Pergunta {number}</span>
          <Badge variant="secondary">{KIND_LABEL[question.kind]}</Badge>
          {question.kind === 'multiple' && <Badge variant="outline">{SCORING_LABEL[question.scoring]}</Badge>}
          {!question.options.some((o) => o.correct) && <Badge variant="destructive">Sem opção correta</Badge>}
        </div>
        <div
          className="prose-content text-sm break-words"
          // Rendered through src/utils/sanitize.ts (allow-list of SPEC §5), as students will see it.
          dangerouslySetInnerHTML={{ __html: statement }}
        />
        {question.image_path && <QuestionImage path={question.image_path} className="max-h-40 w-auto max-w-full" />}
        <ul className="grid gap-1 text-sm" aria-label={`Opções da ${name}`}>
          {question.options.map((o) => (
            <li key={o.id} className={cn('flex items-start gap-2', o.correct && 'font-medium text-green-800')}>
              {o.correct ? (
                <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              ) : (
                <Circle className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              )}
              <span className="min-w-0 break-words">
                {o.text}
                {o.correct && <span className="sr-only"> (correta)</span>}
              </span>
            </li>
          ))}
        </ul>
        {question.explanation && (
          <p className="text-xs break-words whitespace-pre-line text-muted-foreground">
            <span className="font-medium">Explicação:</span> {question.explanation}
          </p>
        )}
      </div>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="icon" aria-label={`Ações da ${name}`}>
            <MoreVertical aria-hidden="true" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuItem onSelect={onEdit}>
            <Pencil aria-hidden="true" /> Editar
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={onDuplicate}>
            <Copy aria-hidden="true" /> Duplicar
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={onDelete} className="text-destructive">
            <Trash2 aria-hidden="true" /> Excluir
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </li>
  );
}

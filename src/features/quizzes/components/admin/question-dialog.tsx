// Adding or editing a question (issue 23): the statement in Markdown with its sanitised preview, an
// optional image, the type and options, and an optional explanation. A dialog over the lesson dialog.
import { useId, useMemo, useState } from 'react';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { FormField } from '@/components/ui/form-field';
import { Textarea } from '@/components/ui/textarea';
import { renderMarkdown } from '@/utils/sanitize';
import { useSaveQuestion, type AdminQuestion, type QuizLessonRef } from '../../api/admin-hooks';
import { randomId } from '../../api/admin-queries';
import { questionSchema, type QuestionFormValues } from '../../schemas';
import { QuestionChoices } from './question-choices';
import { QuestionImageField, type PickedImage } from './question-image-field';

export interface QuestionTarget {
  /** null: a new question, added at `position`. */
  question: AdminQuestion | null;
  number: number;
  position: number;
}

const blank = (): QuestionFormValues => ({
  kind: 'single',
  scoring: 'all_or_nothing',
  statement: '',
  options: [
    { id: randomId(), text: '', correct: false },
    { id: randomId(), text: '', correct: false },
  ],
  explanation: '',
  image_path: null,
});

export function QuestionDialog({
  target,
  quizId,
  lesson,
  onClose,
}: {
  target: QuestionTarget;
  quizId: string;
  lesson: QuizLessonRef;
  onClose: () => void;
}) {
  const id = useId();
  const save = useSaveQuestion();
  const [picked, setPicked] = useState<PickedImage | null>(null);
  const { question } = target;
  const form = useForm<QuestionFormValues>({
    resolver: zodResolver(questionSchema),
    defaultValues: question
      ? {
          kind: question.kind,
          scoring: question.scoring,
          statement: question.statement,
          options: question.options,
          explanation: question.explanation ?? '',
          image_path: question.image_path,
        }
      : blank(),
  });
  const {
    register,
    control,
    setValue,
    handleSubmit,
    formState: { errors },
  } = form;
  const statement = useWatch({ control, name: 'statement' });
  const imagePath = useWatch({ control, name: 'image_path' });
  const preview = useMemo(() => renderMarkdown(statement ?? ''), [statement]);
  const title = question ? `Editar pergunta ${target.number}` : 'Nova pergunta';

  function onSubmit(values: QuestionFormValues) {
    save.mutate(
      {
        id: question?.id,
        quizId,
        position: target.position,
        values: { ...values, explanation: values.explanation || null },
        image: picked ? { lesson, file: picked.file } : null,
      },
      { onSuccess: onClose },
    );
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !save.isPending && onClose()}>
      <DialogContent className="max-w-2xl" onInteractOutside={(e) => e.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>
            Os alunos veem a versão publicada: depois de salvar, publique a avaliação para aplicar a mudança.
          </DialogDescription>
        </DialogHeader>
        <FormProvider {...form}>
          <form
            noValidate
            aria-label={title}
            className="grid gap-4"
            // This dialog is rendered (through a portal) inside the lesson dialog's form: React would
            // bubble the submit to it and save the lesson too.
            onSubmit={(e) => {
              e.stopPropagation();
              void handleSubmit(onSubmit)(e);
            }}
          >
            <div className="grid gap-4 md:grid-cols-2">
              <FormField
                label="Enunciado (Markdown)"
                hint="**negrito**, *itálico*, - listas, `código`"
                error={errors.statement?.message}
                required
              >
                <Textarea rows={6} className="font-mono text-sm" {...register('statement')} />
              </FormField>
              <div className="grid content-start gap-2">
                <span className="text-sm font-medium" id={`${id}-preview`}>
                  Pré-visualização
                </span>
                <div
                  aria-labelledby={`${id}-preview`}
                  className="prose-content max-h-48 min-h-24 overflow-auto rounded-lg border border-border bg-muted/30 p-3 text-sm break-words"
                  // Rendered through src/utils/sanitize.ts (allow-list of SPEC §5), as students will see it.
                  dangerouslySetInnerHTML={{ __html: preview }}
                />
              </div>
            </div>
            <QuestionImageField
              path={imagePath}
              picked={picked}
              disabled={save.isPending}
              onPick={(next) => {
                if (picked) URL.revokeObjectURL(picked.preview);
                setPicked(next);
              }}
              onRemove={() => {
                if (picked) URL.revokeObjectURL(picked.preview);
                setPicked(null);
                setValue('image_path', null, { shouldDirty: true });
              }}
            />
            <QuestionChoices />
            <FormField
              label="Explicação (opcional)"
              hint="Mostrada ao aluno na correção, conforme a opção Mostrar respostas corretas."
              error={errors.explanation?.message}
            >
              <Textarea rows={3} {...register('explanation')} />
            </FormField>
            <FormDialogFooter
              onCancel={onClose}
              pending={save.isPending}
              submitLabel={save.isPending ? 'Salvando...' : 'Salvar pergunta'}
            />
          </form>
        </FormProvider>
      </DialogContent>
    </Dialog>
  );
}

// The Materiais tab of the lesson dialog: upload a file or add a link; list and remove. The content
// editor (features/course-content) shows it through the route (src/app/routes/admin/course-content.tsx).
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { FileText, Link2, Loader2, Trash2, Upload } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { MATERIAL_ACCEPT, validateMaterial } from '@/platform/upload';
import { useAddLessonLink, useLessonMaterials, useRemoveLessonMaterial, useUploadLessonMaterial } from '../api/hooks';
import type { LessonRef } from '../api/queries';
import { lessonLinkSchema, type LessonLinkValues } from '../schemas';

export function LessonMaterials(lesson: LessonRef) {
  const id = useId();
  const materials = useLessonMaterials(lesson.lessonId);
  const upload = useUploadLessonMaterial(lesson);
  const addLink = useAddLessonLink(lesson);
  const remove = useRemoveLessonMaterial();
  const [fileError, setFileError] = useState<string | null>(null);
  const link = useForm<LessonLinkValues>({
    resolver: zodResolver(lessonLinkSchema),
    defaultValues: { title: '', url: '' },
  });
  const busy = upload.isPending || addLink.isPending;

  return (
    <div className="grid gap-5">
      <div className="grid gap-2">
        <Label htmlFor={`${id}-file`}>Arquivo do material</Label>
        <label
          className="flex cursor-pointer items-center justify-center gap-2 rounded-lg border-2 border-dashed border-border px-4 py-5 text-sm text-muted-foreground hover:border-primary/60"
          htmlFor={`${id}-file`}
        >
          {upload.isPending ? (
            <Loader2 className="size-4 animate-spin" aria-hidden="true" />
          ) : (
            <Upload className="size-4" aria-hidden="true" />
          )}
          PDF, DOC(X), XLS(X), PPT(X), CSV ou imagem até 20MB
        </label>
        <input
          id={`${id}-file`}
          type="file"
          className="sr-only"
          accept={MATERIAL_ACCEPT}
          disabled={busy}
          aria-describedby={fileError ? `${id}-file-error` : undefined}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (!file) return;
            const message = validateMaterial(file);
            setFileError(message);
            if (!message) upload.mutate(file);
          }}
        />
        {fileError && (
          <p id={`${id}-file-error`} role="alert" className="text-sm font-medium text-destructive">
            {fileError}
          </p>
        )}
      </div>
      {/* Not a <form>: this tab sits inside the lesson dialog's own form. */}
      <fieldset className="grid gap-3 rounded-lg border border-border p-3">
        <legend className="px-1 text-sm font-medium">Link externo</legend>
        <FormField label="Título do link">
          <Input {...link.register('title')} />
        </FormField>
        <FormField label="URL do link" error={link.formState.errors.url?.message}>
          <Input type="url" inputMode="url" placeholder="https://..." {...link.register('url')} />
        </FormField>
        <Button
          type="button"
          variant="outline"
          disabled={busy}
          onClick={link.handleSubmit((values) => addLink.mutate(values, { onSuccess: () => link.reset() }))}
        >
          <Link2 aria-hidden="true" /> Adicionar link
        </Button>
      </fieldset>
      <div className="grid gap-2">
        <h3 className="text-sm font-semibold">Materiais desta aula</h3>
        {materials.isPending ? (
          <Skeleton className="h-12 rounded-lg" />
        ) : materials.isError ? (
          <LoadError title="Não foi possível carregar os materiais" onRetry={materials.refetch} />
        ) : materials.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nenhum material adicionado.</p>
        ) : (
          <ul className="grid gap-2" aria-label="Materiais desta aula">
            {materials.data.map((m) => (
              <li key={m.id} className="flex items-center gap-3 rounded-lg border border-border px-3 py-2">
                {m.url ? (
                  <Link2 className="size-4 shrink-0" aria-hidden="true" />
                ) : (
                  <FileText className="size-4 shrink-0" aria-hidden="true" />
                )}
                <span className="min-w-0 flex-1 truncate text-sm">{m.title}</span>
                <Badge variant="secondary">{m.type}</Badge>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-label={`Remover ${m.title}`}
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(m)}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

import { useId, useState } from 'react';
import { FileText, Link2, Loader2, Trash2, Upload } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { MATERIAL_ACCEPT, validateMaterial } from '@/lib/upload';
import { useAddMaterial, useRemoveMaterial } from '../api/hooks';
import type { LessonMaterial } from '../api/queries';

/** The Materiais tab of the lesson dialog: upload a file or add a link; list and remove. */
export function LessonMaterials({ courseId, schoolId, lessonId, materials }: { courseId: string; schoolId: string; lessonId: string; materials: LessonMaterial[] }) {
  const id = useId();
  const add = useAddMaterial(courseId, schoolId, lessonId);
  const remove = useRemoveMaterial(lessonId);
  const [fileError, setFileError] = useState<string | null>(null);
  const [linkTitle, setLinkTitle] = useState('');
  const [linkUrl, setLinkUrl] = useState('');
  const [linkError, setLinkError] = useState<string | null>(null);

  function addLink() {
    if (!linkTitle.trim() || !linkUrl.trim()) return setLinkError('Preencha o título e URL do link');
    if (!/^https?:\/\/\S+$/i.test(linkUrl.trim())) return setLinkError('Informe uma URL válida (https://...)');
    setLinkError(null);
    add.mutate({ kind: 'link', title: linkTitle, url: linkUrl }, { onSuccess: () => (setLinkTitle(''), setLinkUrl('')) });
  }

  return (
    <div className="grid gap-5">
      <div className="grid gap-2">
        <Label htmlFor={`${id}-file`}>Arquivo do material</Label>
        <label
          className="flex cursor-pointer items-center justify-center gap-2 rounded-lg border-2 border-dashed border-border px-4 py-5 text-sm text-muted-foreground hover:border-primary/60"
          htmlFor={`${id}-file`}
        >
          {add.isPending ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <Upload className="size-4" aria-hidden="true" />}
          PDF, DOC(X), XLS(X), PPT(X), CSV ou imagem até 20MB
        </label>
        <input
          id={`${id}-file`}
          type="file"
          className="sr-only"
          accept={MATERIAL_ACCEPT}
          disabled={add.isPending}
          aria-describedby={fileError ? `${id}-file-error` : undefined}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (!file) return;
            const message = validateMaterial(file);
            setFileError(message);
            if (!message) add.mutate({ kind: 'file', file });
          }}
        />
        {fileError && (
          <p id={`${id}-file-error`} role="alert" className="text-sm font-medium text-destructive">
            {fileError}
          </p>
        )}
      </div>
      <fieldset className="grid gap-3 rounded-lg border border-border p-3">
        <legend className="px-1 text-sm font-medium">Link externo</legend>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-link-title`}>Título do link</Label>
          <Input id={`${id}-link-title`} value={linkTitle} onChange={(e) => setLinkTitle(e.target.value)} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-link-url`}>URL do link</Label>
          <Input id={`${id}-link-url`} type="url" inputMode="url" placeholder="https://..." value={linkUrl} onChange={(e) => setLinkUrl(e.target.value)} />
        </div>
        {linkError && (
          <p role="alert" className="text-sm font-medium text-destructive">
            {linkError}
          </p>
        )}
        <Button type="button" variant="outline" onClick={addLink} disabled={add.isPending}>
          <Link2 aria-hidden="true" /> Adicionar link
        </Button>
      </fieldset>
      <div className="grid gap-2">
        <h3 className="text-sm font-semibold">Materiais desta aula</h3>
        {materials.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nenhum material adicionado.</p>
        ) : (
          <ul className="grid gap-2" aria-label="Materiais desta aula">
            {materials.map((m) => (
              <li key={m.id} className="flex items-center gap-3 rounded-lg border border-border px-3 py-2">
                {m.url ? <Link2 className="size-4 shrink-0" aria-hidden="true" /> : <FileText className="size-4 shrink-0" aria-hidden="true" />}
                <span className="min-w-0 flex-1 truncate text-sm">{m.title}</span>
                <Badge variant="secondary">{m.type}</Badge>
                <Button type="button" variant="ghost" size="icon" aria-label={`Remover ${m.title}`} disabled={remove.isPending} onClick={() => remove.mutate(m)}>
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

// The question's optional image: a JPG, PNG or WEBP up to 5MB, stored when the question is saved (in
// lesson-materials, under the lesson's folder, so students get it as they get the lesson's materials).
import { useId, useState } from 'react';
import { ImagePlus, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { IMAGE_ACCEPT, validateImage } from '@/platform/upload';
import { QuestionImage } from './question-item';

/** A new image picked in the form, with a browser-side link for its preview. */
export interface PickedImage {
  file: File;
  preview: string;
}

export function QuestionImageField({
  path,
  picked,
  onPick,
  onRemove,
  disabled,
}: {
  /** The stored image (the question's image_path). */
  path: string | null;
  /** A new image, stored on save. */
  picked: PickedImage | null;
  onPick: (image: PickedImage) => void;
  onRemove: () => void;
  disabled?: boolean;
}) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const has = !!picked || !!path;
  return (
    <div className="grid gap-2">
      <Label htmlFor={`${id}-file`}>Imagem (opcional)</Label>
      {picked ? (
        <img src={picked.preview} alt="Nova imagem da pergunta" className="max-h-48 w-auto max-w-full rounded-md border border-border object-contain" />
      ) : (
        path && <QuestionImage path={path} className="h-40 w-full max-w-sm" />
      )}
      <div className="flex flex-wrap items-center gap-2">
        <input
          id={`${id}-file`}
          type="file"
          className="peer sr-only"
          accept={IMAGE_ACCEPT}
          disabled={disabled}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          onChange={(e) => {
            const picked = e.target.files?.[0];
            e.target.value = '';
            if (!picked) return;
            const message = validateImage(picked);
            setError(message);
            if (!message) onPick({ file: picked, preview: URL.createObjectURL(picked) });
          }}
        />
        <label
          htmlFor={`${id}-file`}
          className="inline-flex h-8 cursor-pointer items-center gap-2 rounded-lg border border-border bg-white px-3 text-xs font-medium shadow-xs hover:bg-muted peer-disabled:opacity-50 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-primary"
        >
          <ImagePlus className="size-4" aria-hidden="true" />
          {has ? 'Trocar imagem' : 'Escolher imagem'}
        </label>
        {has && (
          <Button type="button" variant="ghost" size="sm" disabled={disabled} onClick={onRemove}>
            <Trash2 aria-hidden="true" /> Remover imagem
          </Button>
        )}
      </div>
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        JPG, PNG ou WEBP até 5MB, mostrada abaixo do enunciado.
      </p>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

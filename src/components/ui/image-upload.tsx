import { useId, useRef, useState, type ChangeEvent } from 'react';
import { ImagePlus, Loader2 } from 'lucide-react';
import { cn } from '@/utils/cn';
import { StorageImage } from './storage-image';
import { IMAGE_ACCEPT, validateImage, validateImagePixels, type FileLike } from '@/platform/upload';

export interface ImageUploadProps {
  /** Current image URL (preview). */
  value?: string | null;
  /** Called with a file that passed `validate`. */
  onFile: (file: File) => void;
  /** Check returning the pt-BR error message or null (default: JPG/PNG/WEBP up to 5 MB); the render's pixel limit is checked after it. */
  validate?: (file: FileLike) => string | null;
  /** Called with the message when a file is refused (default: shown under the picker). */
  onInvalid?: (message: string) => void;
  accept?: string;
  label?: string;
  hint?: string;
  uploading?: boolean;
  /** CSS aspect ratio of the preview, e.g. '16 / 9'. */
  aspect?: string;
  objectPosition?: string;
  className?: string;
}

/** A drop area / button that picks one image, checks it (type, size, then pixels) and shows a preview. */
export function ImageUpload({
  value,
  onFile,
  validate = validateImage,
  onInvalid,
  accept = IMAGE_ACCEPT,
  label = 'Selecionar imagem',
  hint = 'JPG, PNG ou WEBP até 5MB',
  uploading,
  aspect = '16 / 9',
  objectPosition,
  className,
}: ImageUploadProps) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);

  async function handle(file: File | undefined) {
    if (!file) return;
    const message = validate(file) ?? (await validateImagePixels(file));
    if (message) {
      setError(message);
      onInvalid?.(message);
      return;
    }
    setError(null);
    onFile(file);
  }

  return (
    <div className={cn('grid gap-2', className)}>
      <label
        htmlFor={id}
        className="group relative flex cursor-pointer items-center justify-center overflow-hidden rounded-xl border-2 border-dashed border-border bg-muted/50 transition-colors hover:border-primary/60"
        style={{ aspectRatio: aspect }}
        onDragOver={(e) => e.preventDefault()}
        onDrop={(e) => {
          e.preventDefault();
          void handle(e.dataTransfer.files[0]);
        }}
      >
        {value ? (
          <StorageImage src={value} sizes="(min-width: 1024px) 40rem, 100vw" className="absolute inset-0 size-full object-cover" style={{ objectPosition }} />
        ) : null}
        <span
          className={cn(
            'relative z-10 flex flex-col items-center gap-1 rounded-lg px-3 py-2 text-center text-sm font-medium',
            value ? 'bg-white/90 opacity-0 shadow group-hover:opacity-100 group-focus-within:opacity-100' : 'text-muted-foreground',
          )}
        >
          {uploading ? <Loader2 className="size-5 animate-spin" aria-hidden="true" /> : <ImagePlus className="size-5" aria-hidden="true" />}
          {uploading ? 'Enviando...' : label}
          {!value && <span className="text-xs font-normal">{hint}</span>}
        </span>
        <input
          ref={inputRef}
          id={id}
          type="file"
          accept={accept}
          className="sr-only"
          disabled={uploading}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e: ChangeEvent<HTMLInputElement>) => {
            void handle(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
      </label>
      {error && !onInvalid && (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

import { useId, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { validateImage, type FileLike } from '@/platform/upload';
import { Button } from './button';
import { ImagePositionPicker } from './image-position-picker';
import { ImageUpload } from './image-upload';
import { Input } from './input';
import { Label } from './label';
import { Tabs, TabsContent, TabsList, TabsTrigger } from './tabs';

export interface ImageFieldProps {
  label: string;
  /** The image URL ('' or null: none). */
  value: string | null;
  onChange: (url: string | null) => void;
  /** Focal point 'X% Y%'; omit both to hide the position picker. */
  position?: string;
  onPositionChange?: (position: string) => void;
  /** CSS aspect ratio, e.g. '16 / 9'. */
  aspect?: string;
  hint?: string;
  /** Stores the file (storage-safe name) and resolves with its public URL. */
  upload: (file: File) => Promise<string>;
  /** SPEC §8 toast title when the upload fails. */
  uploadErrorTitle: string;
  validate?: (file: FileLike) => string | null;
  accept?: string;
}

/**
 * An image chosen by URL or by upload (two tabs), with a preview and an optional focal-point picker.
 * The file is checked before it is sent; the original file name stays on screen.
 */
export function ImageField({
  label,
  value,
  onChange,
  position,
  onPositionChange,
  aspect = '16 / 9',
  hint = 'JPG, PNG ou WEBP até 5MB',
  upload,
  uploadErrorTitle,
  validate = validateImage,
  accept,
}: ImageFieldProps) {
  const id = useId();
  // A failed upload goes through the app's one error path (src/platform/query-client.ts), titled by the caller.
  const send = useMutation({ mutationFn: upload, meta: { errorTitle: uploadErrorTitle } });
  const uploading = send.isPending;
  const [fileName, setFileName] = useState<string | null>(null);
  const [urlDraft, setUrlDraft] = useState(value ?? '');
  const [urlError, setUrlError] = useState<string | null>(null);

  function onFile(file: File) {
    send.mutate(file, {
      onSuccess: (url) => {
        setFileName(file.name);
        setUrlDraft(url);
        onChange(url);
      },
    });
  }

  function applyUrl(raw: string) {
    const url = raw.trim();
    if (url === '') {
      setUrlError(null);
      onChange(null);
      return;
    }
    if (!/^https?:\/\/\S+$/i.test(url)) {
      setUrlError('Informe uma URL válida (https://...)');
      return;
    }
    setUrlError(null);
    setFileName(null);
    onChange(url);
  }

  return (
    <fieldset className="grid min-w-0 gap-3 rounded-xl border border-border p-3 sm:p-4">
      <legend className="px-1 text-sm font-semibold">{label}</legend>
      <Tabs defaultValue="upload">
        <TabsList className="h-auto w-full">
          <TabsTrigger value="upload" className="whitespace-normal">
            Enviar arquivo
          </TabsTrigger>
          <TabsTrigger value="url" className="whitespace-normal">
            URL da imagem
          </TabsTrigger>
        </TabsList>
        <TabsContent value="upload" className="grid max-w-xl gap-2">
          <ImageUpload
            value={value}
            onFile={onFile}
            validate={validate}
            accept={accept}
            uploading={uploading}
            aspect={aspect}
            objectPosition={position}
            label={`Selecionar ${label.toLowerCase()}`}
            hint={hint}
          />
          {fileName && <p className="truncate text-xs text-muted-foreground">Arquivo enviado: {fileName}</p>}
        </TabsContent>
        <TabsContent value="url" className="grid max-w-xl gap-2">
          <Label htmlFor={`${id}-url`}>URL da imagem ({label})</Label>
          <Input
            id={`${id}-url`}
            type="url"
            inputMode="url"
            placeholder="https://..."
            value={urlDraft}
            aria-invalid={urlError ? true : undefined}
            aria-describedby={urlError ? `${id}-url-error` : undefined}
            onChange={(e) => setUrlDraft(e.target.value)}
            onBlur={(e) => applyUrl(e.target.value)}
          />
          {urlError && (
            <p id={`${id}-url-error`} role="alert" className="text-sm font-medium text-destructive">
              {urlError}
            </p>
          )}
        </TabsContent>
      </Tabs>
      {value && (
        <>
          {position !== undefined && onPositionChange && (
            <ImagePositionPicker src={value} value={position} onChange={onPositionChange} aspect={aspect} label={`Posição (${label.toLowerCase()})`} />
          )}
          <div>
            <Button
              type="button"
              variant="ghost"
              size="sm"
              onClick={() => {
                setFileName(null);
                setUrlDraft('');
                onChange(null);
              }}
            >
              <X aria-hidden="true" /> Remover {label.toLowerCase()}
            </Button>
          </div>
        </>
      )}
    </fieldset>
  );
}

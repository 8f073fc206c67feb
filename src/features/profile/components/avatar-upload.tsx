import { useId, useState } from 'react';
import { Camera, Loader2 } from 'lucide-react';
import { Avatar } from '@/components/ui/avatar';
import { AVATAR_ACCEPT, validateAvatar, validateImagePixels } from '@/platform/upload';
import { useUploadAvatar } from '../api/hooks';

export function AvatarUpload({ userId, name, avatarUrl }: { userId: string; name: string; avatarUrl: string | null }) {
  const id = useId();
  const upload = useUploadAvatar(userId);
  const [error, setError] = useState<string | null>(null);

  async function onFile(file: File | undefined) {
    if (!file) return;
    const message = validateAvatar(file) ?? (await validateImagePixels(file));
    setError(message);
    if (message) return;
    upload.mutate({ file, previousUrl: avatarUrl });
  }

  return (
    <div className="flex flex-col items-center gap-3 text-center">
      <div className="relative">
        <Avatar name={name} src={avatarUrl} imageWidth={320} className="size-28 ring-4 ring-white shadow-md" fallbackClassName="text-3xl" />
        {upload.isPending && (
          <span className="absolute inset-0 flex items-center justify-center rounded-full bg-black/40" role="status">
            <Loader2 className="size-7 animate-spin text-white" aria-hidden="true" />
            <span className="sr-only">Enviando foto...</span>
          </span>
        )}
        <label
          htmlFor={id}
          className="absolute right-0 bottom-0 flex size-9 cursor-pointer items-center justify-center rounded-full border-2 border-white bg-primary text-white shadow transition-colors hover:bg-primary/90 focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-primary"
          title="Alterar foto"
        >
          <Camera className="size-4" aria-hidden="true" />
          <span className="sr-only">Alterar foto de perfil</span>
          <input
            id={id}
            type="file"
            accept={AVATAR_ACCEPT}
            className="sr-only"
            disabled={upload.isPending}
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
            onChange={(e) => {
              void onFile(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </label>
      </div>
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        JPG, PNG ou WEBP. Máximo 2MB.
      </p>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

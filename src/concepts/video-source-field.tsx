// The video of a lesson or an announcement: none, a YouTube/Vimeo URL, or a file sent with a resumable
// upload (progress, time left, cancel). Inside a react-hook-form <FormProvider> whose values include
// `video_mode` and `video_url`; the file and the upload live in `source` (useVideoSource).
import { useId, type ReactNode } from 'react';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { Film, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import type { VideoSource, VideoSourceValues } from '@/concepts/video-source';
import { VideoUploadProgress } from './video-upload-progress';

const MODE_LABELS = [
  ['none', 'Sem vídeo'],
  ['url', 'YouTube ou Vimeo'],
  ['upload', 'Enviar arquivo'],
] as const;

export interface VideoSourceFieldProps {
  source: VideoSource;
  /** The radio group's name, e.g. 'Tipo de vídeo'. */
  groupLabel: string;
  accept: string;
  validateFile: (file: File) => string | null;
  /** Formats and size, e.g. 'MP4 ou WebM até 500MB.' */
  fileHint: string;
  /** Said under 'Sem vídeo' (e.g. that the current video goes on save). */
  noneNote?: string;
  /** Said in the upload mode under the file hint (e.g. whether students can download the video). */
  uploadNote?: ReactNode;
  /** What to show of the kept video instead of its file name; `chooseFile` opens the file picker. */
  renderKept?: (chooseFile: () => void) => ReactNode;
  disabled?: boolean;
}

export function VideoSourceField({
  source,
  groupLabel,
  accept,
  validateFile,
  fileHint,
  noneNote,
  uploadNote,
  renderKept,
  disabled,
}: VideoSourceFieldProps) {
  const id = useId();
  const {
    control,
    register,
    formState: { errors },
  } = useFormContext<VideoSourceValues>();
  const mode = useWatch({ control, name: 'video_mode' });
  const { file, kept } = source;
  return (
    <div className="grid gap-4">
      <Controller
        control={control}
        name="video_mode"
        render={({ field }) => (
          <RadioGroup
            value={field.value}
            onValueChange={field.onChange}
            aria-label={groupLabel}
            className="sm:grid-cols-3"
          >
            {MODE_LABELS.map(([value, label]) => (
              <div key={value} className="flex items-center gap-2 rounded-lg border border-border px-3 py-2">
                <RadioGroupItem value={value} id={`${id}-mode-${value}`} disabled={disabled} />
                <Label htmlFor={`${id}-mode-${value}`}>{label}</Label>
              </div>
            ))}
          </RadioGroup>
        )}
      />
      {mode === 'url' && (
        <FormField
          label="URL do vídeo"
          hint="Ex.: https://www.youtube.com/watch?v=... ou https://vimeo.com/..."
          error={errors.video_url?.message}
        >
          <Input type="url" inputMode="url" placeholder="https://..." {...register('video_url')} />
        </FormField>
      )}
      {mode === 'upload' && (
        <div className="grid gap-3">
          {kept && !file && (
            <div className="flex items-center gap-3 rounded-lg border border-border px-3 py-2 text-sm">
              {renderKept ? (
                <div className="min-w-0 flex-1">
                  {renderKept(() => document.getElementById(`${id}-video-file`)?.click())}
                </div>
              ) : (
                <>
                  <Film className="size-4 shrink-0" aria-hidden="true" />
                  <span className="min-w-0 flex-1 truncate">Vídeo enviado: {kept.split('/').pop()}</span>
                </>
              )}
              <Button type="button" variant="ghost" size="sm" onClick={source.removeKept}>
                <Trash2 aria-hidden="true" /> Remover vídeo
              </Button>
            </div>
          )}
          <div className="grid gap-2">
            <Label htmlFor={`${id}-video-file`}>
              {kept ? 'Substituir por outro arquivo de vídeo' : 'Arquivo de vídeo'}
            </Label>
            <Input
              id={`${id}-video-file`}
              type="file"
              accept={accept}
              disabled={disabled || source.sending}
              aria-describedby={`${id}-video-hint${source.fileError ? ` ${id}-video-error` : ''}`}
              onChange={(e) => {
                if (!source.chooseFile(e.target.files?.[0] ?? null, validateFile)) e.target.value = '';
              }}
            />
            <p id={`${id}-video-hint`} className="text-xs text-muted-foreground">
              {fileHint} O envio continua de onde parou se a conexão cair.
            </p>
            {uploadNote}
            {source.fileError && (
              <p id={`${id}-video-error`} role="alert" className="text-sm font-medium text-destructive">
                {source.fileError}
              </p>
            )}
          </div>
          {source.sending && file && (
            <VideoUploadProgress
              fileName={file.name}
              progress={source.progress}
              waiting={source.waiting}
              onCancel={source.cancel}
            />
          )}
        </div>
      )}
      {mode === 'none' && noneNote && <p className="text-sm text-muted-foreground">{noneNote}</p>}
    </div>
  );
}

// The staff's dialog to create or edit an announcement (title, body, image, video, priority, active).
import { useId, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from '@/lib/zod';
import { toast } from '@/lib/toast';
import { Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { ImageField } from '@/components/ui/image-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { ProgressBar } from '@/components/ui/progress-bar';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { RichTextEditor } from '@/components/ui/rich-text-editor';
import { Switch } from '@/components/ui/switch';
import { resumableObjectName, startResumableUpload, type UploadProgress } from '@/lib/resumable-upload';
import { uploadPublicImage } from '@/lib/storage';
import { ANNOUNCEMENT_VIDEO_ACCEPT, formatFileSize, storageSafeName, validateAnnouncementVideo } from '@/lib/upload';
import { errorMessage } from '@/lib/utils';
import { saveAnnouncement, useInvalidateAnnouncements, type AdminAnnouncement } from '../../api/admin';

const schema = z
  .object({
    title: z.string().trim().min(1, 'Título é obrigatório').max(200, 'Máximo de 200 caracteres'),
    body: z.string().refine((html) => html.replace(/<[^>]*>/g, '').trim().length > 0, 'Mensagem é obrigatória'),
    image_url: z.string().nullable(),
    video_mode: z.enum(['none', 'url', 'upload']),
    video_url: z.string(),
    priority: z.coerce.number({ message: 'Informe a prioridade' }).int('Use um número inteiro').min(0, 'Mínimo 0').max(100, 'Máximo 100'),
    is_active: z.boolean(),
  })
  .superRefine((v, ctx) => {
    if (v.video_mode === 'url' && !/^https?:\/\/(www\.)?(youtube\.com|youtu\.be|vimeo\.com|player\.vimeo\.com)\/\S+$/i.test(v.video_url.trim())) {
      ctx.addIssue({ code: 'custom', path: ['video_url'], message: 'Informe uma URL válida do YouTube ou do Vimeo' });
    }
  });
type FormIn = z.input<typeof schema>;
type FormOut = z.output<typeof schema>;

function modeOf(a: AdminAnnouncement | null): FormIn['video_mode'] {
  if (!a?.video_url) return 'none';
  return a.video_type === 'direct' ? 'upload' : 'url';
}

export function AnnouncementDialog({ item, schoolId, userId, onClose }: { item: AdminAnnouncement | null; schoolId: string; userId: string; onClose: () => void }) {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const invalidate = useInvalidateAnnouncements();
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(schema),
    defaultValues: {
      title: item?.title ?? '',
      body: item?.body ?? '',
      image_url: item?.image_url ?? null,
      video_mode: modeOf(item),
      video_url: item && item.video_type !== 'direct' ? (item.video_url ?? '') : '',
      priority: item?.priority ?? 0,
      is_active: item?.is_active ?? true,
    },
  });
  const mode = useWatch({ control, name: 'video_mode' });
  const keptUpload = item?.video_type === 'direct' ? item.video_url : null;
  const title = item ? 'Editar Anúncio' : 'Novo Anúncio';

  async function onSubmit(v: FormOut) {
    if (v.video_mode === 'upload' && !file && !keptUpload) return setFileError('Selecione um arquivo de vídeo');
    setSaving(true);
    try {
      let video_url: string | null = null;
      let video_type: AdminAnnouncement['video_type'] = 'youtube';
      if (v.video_mode === 'url') {
        video_url = v.video_url.trim();
        video_type = /vimeo\.com/i.test(video_url) ? 'vimeo' : 'youtube';
      } else if (v.video_mode === 'upload') {
        video_type = 'direct';
        video_url = keptUpload;
        if (file) {
          const path = `${schoolId}/${resumableObjectName(file, storageSafeName(file.name))}`;
          await startResumableUpload({ bucket: 'announcement-videos', path, file, onProgress: setProgress }).done;
          video_url = path;
        }
      }
      await saveAnnouncement({
        id: item?.id,
        schoolId,
        instructorId: item?.instructor_id ?? userId,
        values: { title: v.title, body: v.body, image_url: v.image_url, video_url, video_type, priority: v.priority, is_active: v.is_active },
      });
      invalidate();
      toast.success(item ? 'Anúncio atualizado!' : 'Anúncio criado!');
      onClose();
    } catch (error) {
      toast.error('Erro ao salvar anúncio', { description: errorMessage(error) });
    } finally {
      setSaving(false);
      setProgress(null);
    }
  }

  return (
    <Dialog open onOpenChange={(o) => !o && !saving && onClose()}>
      <DialogContent className="max-w-2xl" onInteractOutside={(e) => e.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>O anúncio ativo de maior prioridade aparece para os alunos uma vez por dia.</DialogDescription>
        </DialogHeader>
        <form noValidate aria-label={title} className="grid gap-4" onSubmit={handleSubmit(onSubmit)}>
          <FormField label="Título" error={errors.title?.message} required>
            <Input {...register('title')} />
          </FormField>
          <div className="grid gap-2">
            <span id={`${id}-body-label`} className="text-sm font-medium">
              Mensagem<span aria-hidden="true" className="ml-0.5 text-destructive">*</span>
            </span>
            <Controller
              control={control}
              name="body"
              render={({ field }) => (
                <RichTextEditor id={`${id}-body`} labelledBy={`${id}-body-label`} value={field.value} onChange={field.onChange} invalid={!!errors.body} describedBy={errors.body ? `${id}-body-error` : undefined} />
              )}
            />
            {errors.body && (
              <p id={`${id}-body-error`} role="alert" className="text-sm font-medium text-destructive">
                {errors.body.message}
              </p>
            )}
          </div>
          <Controller
            control={control}
            name="image_url"
            render={({ field }) => (
              <ImageField label="Imagem" value={field.value} onChange={field.onChange} upload={(f) => uploadPublicImage('course-thumbnails', schoolId, f)} uploadErrorTitle="Erro ao fazer upload" />
            )}
          />
          <fieldset className="grid gap-3 rounded-xl border border-border p-4">
            <legend className="px-1 text-sm font-semibold">Vídeo</legend>
            <Controller
              control={control}
              name="video_mode"
              render={({ field }) => (
                <RadioGroup value={field.value} onValueChange={field.onChange} aria-label="Vídeo do anúncio" className="sm:grid-cols-3">
                  {(
                    [
                      ['none', 'Sem vídeo'],
                      ['url', 'YouTube ou Vimeo'],
                      ['upload', 'Enviar vídeo'],
                    ] as const
                  ).map(([value, label]) => (
                    <div key={value} className="flex items-center gap-2">
                      <RadioGroupItem value={value} id={`${id}-v-${value}`} />
                      <Label htmlFor={`${id}-v-${value}`}>{label}</Label>
                    </div>
                  ))}
                </RadioGroup>
              )}
            />
            {mode === 'url' && (
              <FormField label="URL do vídeo" error={errors.video_url?.message}>
                <Input type="url" inputMode="url" placeholder="https://www.youtube.com/watch?v=..." {...register('video_url')} />
              </FormField>
            )}
            {mode === 'upload' && (
              <div className="grid gap-2">
                {keptUpload && !file && <p className="truncate text-sm">Vídeo atual: {keptUpload.split('/').pop()}</p>}
                <Label htmlFor={`${id}-video`}>Arquivo de vídeo (MP4 ou WebM até 500MB)</Label>
                <Input
                  id={`${id}-video`}
                  type="file"
                  accept={ANNOUNCEMENT_VIDEO_ACCEPT}
                  disabled={saving}
                  onChange={(e) => {
                    const f = e.target.files?.[0] ?? null;
                    const message = f ? validateAnnouncementVideo(f) : null;
                    setFileError(message);
                    setFile(message ? null : f);
                    if (message) e.target.value = '';
                  }}
                />
                {fileError && (
                  <p role="alert" className="text-sm font-medium text-destructive">
                    {fileError}
                  </p>
                )}
                {saving && file && (
                  <div className="grid gap-1" role="status">
                    <ProgressBar value={progress?.percent ?? 0} label={`Envio do vídeo: ${progress?.percent ?? 0}%`} />
                    <span className="text-xs text-muted-foreground">{progress ? `${formatFileSize(progress.bytesSent)} de ${formatFileSize(progress.bytesTotal)}` : 'Preparando...'}</span>
                  </div>
                )}
              </div>
            )}
          </fieldset>
          <div className="grid gap-4 sm:grid-cols-2 sm:items-end">
            <FormField label="Prioridade" hint="0 a 100; maior aparece primeiro" error={errors.priority?.message}>
              <Input type="number" min={0} max={100} step={1} inputMode="numeric" {...register('priority')} />
            </FormField>
            <Controller
              control={control}
              name="is_active"
              render={({ field }) => (
                <div className="flex items-center gap-3 pb-2">
                  <Switch id={`${id}-active`} checked={field.value} onCheckedChange={field.onChange} />
                  <Label htmlFor={`${id}-active`}>Ativo</Label>
                </div>
              )}
            />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={saving}>
              Cancelar
            </Button>
            <Button type="submit" disabled={saving}>
              {saving && <Loader2 className="animate-spin" aria-hidden="true" />}
              {saving ? 'Salvando...' : 'Salvar'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

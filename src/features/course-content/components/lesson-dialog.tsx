import { useId, useMemo, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from '@/lib/zod';
import { toast } from '@/lib/toast';
import { Film, Loader2, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { Spinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { Textarea } from '@/components/ui/textarea';
import { resumableObjectName, startResumableUpload, type ResumableUpload, type UploadProgress } from '@/lib/resumable-upload';
import { renderMarkdown } from '@/lib/sanitize';
import { LESSON_VIDEO_ACCEPT, storageSafeName, validateLessonVideo } from '@/lib/upload';
import { errorMessage } from '@/lib/utils';
import { attachUploadedVideo, saveLesson, useInvalidateCourseContent, useLessonForEdit } from '../api/hooks';
import type { LessonForEdit, LessonVideoType } from '../api/queries';
import { minutesToSeconds, videoUrlKind } from '../lib/outline';
import { LessonMaterials } from './lesson-materials';
import { VideoUploadProgress } from './video-upload-progress';

const schema = z
  .object({
    title: z.string().trim().min(1, 'Título é obrigatório').max(200, 'Máximo de 200 caracteres'),
    content: z.string().max(200000, 'Conteúdo muito longo'),
    is_preview: z.boolean(),
    video_mode: z.enum(['none', 'url', 'upload']),
    video_url: z.string(),
    duration_min: z.coerce.number({ message: 'Informe a duração em minutos' }).min(0, 'Mínimo 0').max(100000, 'Duração muito longa'),
  })
  .superRefine((v, ctx) => {
    if (v.video_mode === 'url' && !videoUrlKind(v.video_url)) {
      ctx.addIssue({ code: 'custom', path: ['video_url'], message: 'Informe uma URL válida do YouTube ou do Vimeo' });
    }
  });
type Input_ = z.input<typeof schema>;
type Values = z.output<typeof schema>;

export interface LessonDialogTarget {
  moduleId: string;
  lessonId: string | null;
  orderIndex: number;
}

export function LessonDialog({ target, onClose, courseId, schoolId }: { target: LessonDialogTarget | null; onClose: () => void; courseId: string; schoolId: string }) {
  const lesson = useLessonForEdit(target?.lessonId ?? null);
  const loading = !!target?.lessonId && lesson.isPending;
  return (
    <Dialog open={!!target} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-3xl" onInteractOutside={(e) => e.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{target?.lessonId ? 'Editar Aula' : 'Nova Aula'}</DialogTitle>
          <DialogDescription>Conteúdo, vídeo e materiais da aula.</DialogDescription>
        </DialogHeader>
        {target && (loading ? <Spinner /> : <LessonForm key={target.lessonId ?? 'new'} target={target} data={lesson.data ?? null} courseId={courseId} schoolId={schoolId} onDone={onClose} />)}
      </DialogContent>
    </Dialog>
  );
}

function modeOf(type: LessonVideoType | undefined): Values['video_mode'] {
  if (type === 'youtube' || type === 'vimeo') return 'url';
  if (type === 'upload') return 'upload';
  return 'none';
}

function LessonForm({ target, data, courseId, schoolId, onDone }: { target: LessonDialogTarget; data: LessonForEdit | null; courseId: string; schoolId: string; onDone: () => void }) {
  const id = useId();
  const invalidate = useInvalidateCourseContent(courseId);
  const [tab, setTab] = useState('conteudo');
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  // An uploaded video removed in the form is only cleared on save (SPEC §4).
  const [keptUpload, setKeptUpload] = useState<string | null>(data?.lesson.video_type === 'upload' ? data.video_url : null);
  const [saving, setSaving] = useState(false);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [waiting, setWaiting] = useState(false);
  const [activeUpload, setActiveUpload] = useState<ResumableUpload | null>(null);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<Input_, unknown, Values>({
    resolver: zodResolver(schema),
    defaultValues: {
      title: data?.lesson.title ?? '',
      content: data?.content ?? '',
      is_preview: data?.lesson.is_preview ?? false,
      video_mode: modeOf(data?.lesson.video_type),
      video_url: data && modeOf(data.lesson.video_type) === 'url' ? (data.video_url ?? '') : '',
      duration_min: data ? Math.round((data.lesson.duration_sec / 60) * 10) / 10 : 0,
    },
  });
  const [content, mode] = useWatch({ control, name: ['content', 'video_mode'] });
  const preview = useMemo(() => renderMarkdown(content ?? ''), [content]);

  async function onSubmit(v: Values) {
    if (v.video_mode === 'upload' && !file && !keptUpload) {
      setTab('video');
      setFileError('Selecione um arquivo de vídeo');
      return;
    }
    setSaving(true);
    try {
      const keepsOldUpload = v.video_mode === 'upload' && !!keptUpload;
      const type: LessonVideoType = v.video_mode === 'url' ? videoUrlKind(v.video_url)! : keepsOldUpload ? 'upload' : 'none';
      const lessonId = await saveLesson({
        id: target.lessonId ?? undefined,
        courseId,
        moduleId: target.moduleId,
        orderIndex: target.orderIndex,
        values: {
          title: v.title,
          content: v.content,
          is_preview: v.is_preview,
          video_type: type,
          video_url: v.video_mode === 'url' ? v.video_url.trim() : keepsOldUpload ? keptUpload : null,
          duration_sec: minutesToSeconds(v.duration_min),
        },
      });
      if (v.video_mode === 'upload' && file) {
        const path = `${schoolId}/${courseId}/${lessonId}/${resumableObjectName(file, storageSafeName(file.name))}`;
        const upload = startResumableUpload({ bucket: 'lesson-videos', path, file, onProgress: (p) => (setWaiting(false), setProgress(p)), onRetry: () => setWaiting(true) });
        setActiveUpload(upload);
        try {
          await upload.done;
        } catch (error) {
          await invalidate();
          toast.error('Erro ao enviar vídeo', { description: errorMessage(error) });
          return;
        } finally {
          setActiveUpload(null);
        }
        await attachUploadedVideo(lessonId, path);
      }
      await invalidate();
      toast.success('Aula salva!');
      onDone();
    } catch (error) {
      toast.error('Erro ao salvar aula', { description: errorMessage(error) });
    } finally {
      setSaving(false);
      setProgress(null);
    }
  }

  const uploading = saving && !!file && mode === 'upload';
  return (
    <form noValidate aria-label={target.lessonId ? 'Editar Aula' : 'Nova Aula'} className="grid gap-4" onSubmit={handleSubmit(onSubmit, (errs) => setTab(errs.title || errs.content ? 'conteudo' : 'video'))}>
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList className="w-full">
          <TabsTrigger value="conteudo">Conteúdo</TabsTrigger>
          <TabsTrigger value="video">Vídeo</TabsTrigger>
          <TabsTrigger value="materiais" disabled={!target.lessonId}>
            Materiais
          </TabsTrigger>
        </TabsList>
        <TabsContent value="conteudo" forceMount className="grid gap-4 data-[state=inactive]:hidden">
          <FormField label="Título" error={errors.title?.message} required>
            <Input {...register('title')} />
          </FormField>
          <div className="grid gap-4 md:grid-cols-2">
            <FormField label="Descrição (Markdown)" hint="**negrito**, *itálico*, # títulos, - listas, [links](https://...)" error={errors.content?.message}>
              <Textarea rows={10} className="font-mono text-sm" {...register('content')} />
            </FormField>
            <div className="grid content-start gap-2">
              <span className="text-sm font-medium" id={`${id}-preview`}>
                Pré-visualização
              </span>
              <div
                aria-labelledby={`${id}-preview`}
                className="prose-content max-h-64 min-h-24 overflow-auto rounded-lg border border-border bg-muted/30 p-3 text-sm"
                // Rendered through src/lib/sanitize.ts (allow-list of SPEC §5), as students will see it.
                dangerouslySetInnerHTML={{ __html: preview }}
              />
            </div>
          </div>
          <Controller
            control={control}
            name="is_preview"
            render={({ field }) => (
              <div className="flex items-center gap-3">
                <Switch id={`${id}-preview-switch`} checked={field.value} onCheckedChange={field.onChange} />
                <Label htmlFor={`${id}-preview-switch`}>Aula gratuita (Preview): aberta a quem não está matriculado</Label>
              </div>
            )}
          />
        </TabsContent>
        <TabsContent value="video" forceMount className="grid gap-4 data-[state=inactive]:hidden">
          <Controller
            control={control}
            name="video_mode"
            render={({ field }) => (
              <RadioGroup value={field.value} onValueChange={field.onChange} aria-label="Tipo de vídeo" className="sm:grid-cols-3">
                {(
                  [
                    ['none', 'Nenhum'],
                    ['url', 'YouTube ou Vimeo'],
                    ['upload', 'Enviar arquivo'],
                  ] as const
                ).map(([value, label]) => (
                  <div key={value} className="flex items-center gap-2 rounded-lg border border-border px-3 py-2">
                    <RadioGroupItem value={value} id={`${id}-mode-${value}`} />
                    <Label htmlFor={`${id}-mode-${value}`}>{label}</Label>
                  </div>
                ))}
              </RadioGroup>
            )}
          />
          {mode === 'url' && (
            <FormField label="URL do vídeo" hint="Ex.: https://www.youtube.com/watch?v=... ou https://vimeo.com/..." error={errors.video_url?.message}>
              <Input type="url" inputMode="url" placeholder="https://..." {...register('video_url')} />
            </FormField>
          )}
          {mode === 'upload' && (
            <div className="grid gap-3">
              {keptUpload && !file && (
                <div className="flex items-center gap-3 rounded-lg border border-border px-3 py-2 text-sm">
                  <Film className="size-4 shrink-0" aria-hidden="true" />
                  <span className="min-w-0 flex-1 truncate">Vídeo enviado: {keptUpload.split('/').pop()}</span>
                  <Button type="button" variant="ghost" size="sm" onClick={() => setKeptUpload(null)}>
                    <Trash2 aria-hidden="true" /> Remover vídeo
                  </Button>
                </div>
              )}
              <div className="grid gap-2">
                <Label htmlFor={`${id}-video-file`}>{keptUpload ? 'Substituir por outro arquivo' : 'Arquivo de vídeo'}</Label>
                <Input
                  id={`${id}-video-file`}
                  type="file"
                  accept={LESSON_VIDEO_ACCEPT}
                  disabled={saving}
                  aria-describedby={`${id}-video-hint${fileError ? ` ${id}-video-error` : ''}`}
                  onChange={(e) => {
                    const f = e.target.files?.[0] ?? null;
                    const message = f ? validateLessonVideo(f) : null;
                    setFileError(message);
                    setFile(message ? null : f);
                    if (message) e.target.value = '';
                  }}
                />
                <p id={`${id}-video-hint`} className="text-xs text-muted-foreground">
                  MP4, WebM, MOV ou AVI até 500MB. O envio continua de onde parou se a conexão cair.
                </p>
                {fileError && (
                  <p id={`${id}-video-error`} role="alert" className="text-sm font-medium text-destructive">
                    {fileError}
                  </p>
                )}
              </div>
              {uploading && file && <VideoUploadProgress fileName={file.name} progress={progress} waiting={waiting} onCancel={() => void activeUpload?.cancel()} />}
            </div>
          )}
          {mode === 'none' && <p className="text-sm text-muted-foreground">A aula não terá vídeo{keptUpload || data?.video_url ? ' (o vídeo atual será removido ao salvar)' : ''}.</p>}
          <FormField label="Duração (minutos)" error={errors.duration_min?.message}>
            <Input type="number" min={0} step="any" inputMode="decimal" className="max-w-40" {...register('duration_min')} />
          </FormField>
        </TabsContent>
        <TabsContent value="materiais">
          {target.lessonId ? (
            <LessonMaterials courseId={courseId} schoolId={schoolId} lessonId={target.lessonId} materials={data?.materials ?? []} />
          ) : (
            <p className="text-sm text-muted-foreground">Salve a aula para adicionar materiais.</p>
          )}
        </TabsContent>
      </Tabs>
      {!target.lessonId && <p className="text-xs text-muted-foreground">Os materiais podem ser adicionados depois que a aula for salva.</p>}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={uploading}>
          Cancelar
        </Button>
        <Button type="submit" disabled={saving}>
          {saving && <Loader2 className="animate-spin" aria-hidden="true" />}
          {uploading ? 'Enviando vídeo...' : saving ? 'Salvando...' : 'Salvar Aula'}
        </Button>
      </DialogFooter>
    </form>
  );
}

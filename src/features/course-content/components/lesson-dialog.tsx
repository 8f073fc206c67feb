// The lesson dialog (SPEC §2 "Course content"): the content (Markdown with its preview), the video
// (none, YouTube/Vimeo, or a resumable upload: to the video host when the platform has one, with its
// processing shown until ready, else to Storage, said to be downloadable) and, once the lesson exists, its materials and its quiz
// (slots the route fills from features/materials and features/quizzes).
import { useId, useMemo, useState, type ReactNode } from 'react';
import { Controller, FormProvider, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from '@/platform/toast';
import { Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { Textarea } from '@/components/ui/textarea';
import { VideoSourceField } from '@/concepts/video-source-field';
import { renderMarkdown } from '@/utils/sanitize';
import { LESSON_VIDEO_ACCEPT, validateLessonVideo } from '@/platform/upload';
import { useVideoSource, videoUrlKind, type VideoMode } from '@/concepts/video-source';
import {
  useLessonForEdit,
  useLessonVideo,
  useSaveLesson,
  useUploadLessonVideo,
  useVideoHostAvailable,
} from '../api/hooks';
import type { LessonForEdit, LessonVideoType } from '../api/queries';
import { minutesToSeconds } from '../lib/outline';
import { LessonVideoStatus, VideoHostNote } from './lesson-video-status';
import { lessonSchema, type LessonFormInput, type LessonFormValues } from '../schemas';

export interface LessonDialogTarget {
  moduleId: string;
  lessonId: string | null;
  orderIndex: number;
}

/** The Materiais tab of a saved lesson (features/materials, passed in by the route). */
export type RenderMaterials = (lesson: { schoolId: string; courseId: string; lessonId: string }) => ReactNode;
/** The Avaliação tab of a saved lesson (features/quizzes, passed in by the route). */
export type RenderQuiz = RenderMaterials;

interface LessonDialogProps {
  target: LessonDialogTarget | null;
  onClose: () => void;
  courseId: string;
  schoolId: string;
  renderMaterials: RenderMaterials;
  renderQuiz: RenderQuiz;
}

export function LessonDialog({ target, onClose, ...rest }: LessonDialogProps) {
  const lesson = useLessonForEdit(target?.lessonId ?? null);
  const loading = !!target?.lessonId && lesson.isPending;
  return (
    <Dialog open={!!target} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-3xl" onInteractOutside={(e) => e.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{target?.lessonId ? 'Editar Aula' : 'Nova Aula'}</DialogTitle>
          <DialogDescription>Conteúdo, vídeo, materiais e avaliação da aula.</DialogDescription>
        </DialogHeader>
        {target &&
          (loading ? (
            <Spinner />
          ) : (
            <LessonForm
              key={target.lessonId ?? 'new'}
              target={target}
              data={lesson.data ?? null}
              onDone={onClose}
              {...rest}
            />
          ))}
      </DialogContent>
    </Dialog>
  );
}

function modeOf(type: LessonVideoType | undefined): VideoMode {
  if (type === 'youtube' || type === 'vimeo') return 'url';
  if (type === 'upload') return 'upload';
  return 'none';
}

function LessonForm({
  target,
  data,
  courseId,
  schoolId,
  renderMaterials,
  renderQuiz,
  onDone,
}: Omit<LessonDialogProps, 'target' | 'onClose'> & {
  target: LessonDialogTarget;
  data: LessonForEdit | null;
  onDone: () => void;
}) {
  const id = useId();
  const [tab, setTab] = useState('conteudo');
  // An uploaded video removed in the form is only cleared on save (SPEC §4).
  const video = useVideoSource(data?.lesson.video_type === 'upload' ? data.video_url : null);
  const save = useSaveLesson();
  const upload = useUploadLessonVideo();
  const videoHost = useVideoHostAvailable();
  const hostedVideo = useLessonVideo(video.kept === 'video-host' ? target.lessonId : null);
  const form = useForm<LessonFormInput, unknown, LessonFormValues>({
    resolver: zodResolver(lessonSchema),
    defaultValues: {
      title: data?.lesson.title ?? '',
      content: data?.content ?? '',
      is_preview: data?.lesson.is_preview ?? false,
      video_mode: modeOf(data?.lesson.video_type),
      video_url: data && modeOf(data.lesson.video_type) === 'url' ? (data.video_url ?? '') : '',
      duration_min: data ? Math.round((data.lesson.duration_sec / 60) * 10) / 10 : 0,
    },
  });
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = form;
  const content = useWatch({ control, name: 'content' });
  const preview = useMemo(() => renderMarkdown(content ?? ''), [content]);

  function done(videoProcessing = false) {
    toast.success(videoProcessing ? 'Aula salva! O vídeo está sendo processado.' : 'Aula salva!');
    onDone();
  }

  function onSubmit(v: LessonFormValues) {
    if (video.missingFile(v.video_mode)) return setTab('video');
    const keepsOldUpload = v.video_mode === 'upload' && !!video.kept;
    const videoType: LessonVideoType =
      v.video_mode === 'url' ? videoUrlKind(v.video_url)! : keepsOldUpload ? 'upload' : 'none';
    const input = {
      id: target.lessonId ?? undefined,
      courseId,
      moduleId: target.moduleId,
      orderIndex: target.orderIndex,
      values: {
        title: v.title,
        content: v.content,
        is_preview: v.is_preview,
        video_type: videoType,
        video_url: v.video_mode === 'url' ? v.video_url.trim() : keepsOldUpload ? video.kept : null,
        duration_sec: minutesToSeconds(v.duration_min),
      },
    };
    save.mutate(input, {
      onSuccess: (lessonId) => {
        const file = v.video_mode === 'upload' ? video.file : null;
        if (!file) return done();
        upload.mutate({ schoolId, courseId, lessonId, file, source: video }, { onSuccess: (sentTo) => done(sentTo === 'host') });
      },
    });
  }

  const saving = save.isPending || upload.isPending;
  const uploading = upload.isPending;
  return (
    <FormProvider {...form}>
      <form
        noValidate
        aria-label={target.lessonId ? 'Editar Aula' : 'Nova Aula'}
        className="grid gap-4"
        onSubmit={handleSubmit(onSubmit, (errs) => setTab(errs.title || errs.content ? 'conteudo' : 'video'))}
      >
        <Tabs value={tab} onValueChange={setTab}>
          {/* Four tabs fit a 360 px phone only with narrower padding. */}
          <TabsList className="w-full">
            <TabsTrigger value="conteudo" className="px-1.5 sm:px-3">
              Conteúdo
            </TabsTrigger>
            <TabsTrigger value="video" className="px-1.5 sm:px-3">
              Vídeo
            </TabsTrigger>
            <TabsTrigger value="materiais" disabled={!target.lessonId} className="px-1.5 sm:px-3">
              Materiais
            </TabsTrigger>
            <TabsTrigger value="avaliacao" className="px-1.5 sm:px-3">
              Avaliação
            </TabsTrigger>
          </TabsList>
          <TabsContent value="conteudo" forceMount className="grid gap-4 data-[state=inactive]:hidden">
            <FormField label="Título" error={errors.title?.message} required>
              <Input {...register('title')} />
            </FormField>
            <div className="grid gap-4 md:grid-cols-2">
              <FormField
                label="Descrição (Markdown)"
                hint="**negrito**, *itálico*, # títulos, - listas, [links](https://...)"
                error={errors.content?.message}
              >
                <Textarea rows={10} className="font-mono text-sm" {...register('content')} />
              </FormField>
              <div className="grid content-start gap-2">
                <span className="text-sm font-medium" id={`${id}-preview`}>
                  Pré-visualização
                </span>
                <div
                  aria-labelledby={`${id}-preview`}
                  className="prose-content max-h-64 min-h-24 overflow-auto rounded-lg border border-border bg-muted/30 p-3 text-sm"
                  // Rendered through src/utils/sanitize.ts (allow-list of SPEC §5), as students will see it.
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
                  <Label htmlFor={`${id}-preview-switch`}>
                    Aula gratuita (Preview): aberta a quem não está matriculado
                  </Label>
                </div>
              )}
            />
          </TabsContent>
          <TabsContent value="video" forceMount className="grid gap-4 data-[state=inactive]:hidden">
            <VideoSourceField
              source={video}
              groupLabel="Tipo de vídeo"
              accept={LESSON_VIDEO_ACCEPT}
              validateFile={validateLessonVideo}
              fileHint="MP4, WebM, MOV ou AVI até 500MB."
              uploadNote={<VideoHostNote hosted={videoHost.data} />}
              renderKept={
                video.kept === 'video-host'
                  ? (chooseFile) => <LessonVideoStatus video={hostedVideo.data} onSendAgain={chooseFile} />
                  : undefined
              }
              noneNote={`A aula não terá vídeo${video.kept || data?.video_url ? ' (o vídeo atual será removido ao salvar)' : ''}.`}
              disabled={saving}
            />
            <FormField label="Duração (minutos)" error={errors.duration_min?.message}>
              <Input
                type="number"
                min={0}
                step="any"
                inputMode="decimal"
                className="max-w-40"
                {...register('duration_min')}
              />
            </FormField>
          </TabsContent>
          <TabsContent value="materiais">
            {target.lessonId ? (
              renderMaterials({ schoolId, courseId, lessonId: target.lessonId })
            ) : (
              <p className="text-sm text-muted-foreground">Salve a aula para adicionar materiais.</p>
            )}
          </TabsContent>
          {/* Mounted while hidden: the quiz's unsaved settings survive a look at another tab. */}
          <TabsContent value="avaliacao" forceMount className="data-[state=inactive]:hidden">
            {target.lessonId ? (
              renderQuiz({ schoolId, courseId, lessonId: target.lessonId })
            ) : (
              <p className="text-sm text-muted-foreground">Salve a aula para adicionar uma avaliação.</p>
            )}
          </TabsContent>
        </Tabs>
        {!target.lessonId && (
          <p className="text-xs text-muted-foreground">
            Os materiais e a avaliação podem ser adicionados depois que a aula for salva.
          </p>
        )}
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
    </FormProvider>
  );
}

// The staff's dialog to create or edit an announcement (title, body, image, video, priority, active) and
// "Para quem": the whole school or one turma of a course (issue 40, "Comunicado para a turma"; only that
// turma's students read it, by the database's policy), optionally "Enviar também por e-mail" to them.
import { useId } from 'react';
import { Controller, FormProvider, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
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
import { ImageField } from '@/components/ui/image-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RichTextEditor } from '@/components/ui/rich-text-editor';
import { Switch } from '@/components/ui/switch';
import { RadioChoiceField, SwitchChoiceField } from '@/components/ui/choice-fields';
import { Select } from '@/components/ui/select';
import { CourseOptions, type CourseOption } from '@/concepts/course-filter';
import { useCourseTurmas } from '@/concepts/turmas';
import { VideoSourceField } from '@/concepts/video-source-field';
import { uploadPublicImage } from '@/platform/storage';
import { ANNOUNCEMENT_VIDEO_ACCEPT, validateAnnouncementVideo } from '@/platform/upload';
import { useVideoSource, videoUrlKind, type VideoMode } from '@/concepts/video-source';
import { useSaveAnnouncement } from '../../api/admin-hooks';
import type { AdminAnnouncement } from '../../api/admin-queries';
import { announcementSchema, type AnnouncementFormInput, type AnnouncementFormValues } from '../../schemas';

function modeOf(a: AdminAnnouncement | null): VideoMode {
  if (!a?.video_url) return 'none';
  return a.video_type === 'direct' ? 'upload' : 'url';
}

export function AnnouncementDialog({
  item,
  schoolId,
  userId,
  courses,
  turma,
  onClose,
}: {
  item: AdminAnnouncement | null;
  schoolId: string;
  userId: string;
  courses: CourseOption[];
  /** A new announcement for this turma ("Comunicado para a turma" on a turma's page). */
  turma?: { courseId: string; turmaId: string };
  onClose: () => void;
}) {
  const id = useId();
  const video = useVideoSource(item?.video_type === 'direct' ? item.video_url : null);
  const save = useSaveAnnouncement();
  const saving = save.isPending;
  const form = useForm<AnnouncementFormInput, unknown, AnnouncementFormValues>({
    resolver: zodResolver(announcementSchema),
    defaultValues: {
      title: item?.title ?? '',
      body: item?.body ?? '',
      image_url: item?.image_url ?? null,
      video_mode: modeOf(item),
      video_url: item && item.video_type !== 'direct' ? (item.video_url ?? '') : '',
      priority: item?.priority ?? 0,
      is_active: item?.is_active ?? true,
      audience: item?.turma_id || (!item && turma) ? 'turma' : 'school',
      course_id: item ? (item.turma_id ? (item.course_id ?? '') : '') : (turma?.courseId ?? ''),
      turma_id: item ? (item.turma_id ?? '') : (turma?.turmaId ?? ''),
      email_students: item?.email_students ?? false,
    },
  });
  const [audience, courseId] = useWatch({ control: form.control, name: ['audience', 'course_id'] });
  const turmas = useCourseTurmas(audience === 'turma' ? courseId : '');
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = form;
  const title = item ? 'Editar Anúncio' : 'Novo Anúncio';

  function onSubmit(v: AnnouncementFormValues) {
    if (video.missingFile(v.video_mode)) return;
    const upload = v.video_mode === 'upload';
    save.mutate(
      {
        id: item?.id,
        schoolId,
        instructorId: item?.instructor_id ?? userId,
        values: {
          title: v.title,
          body: v.body,
          image_url: v.image_url,
          video_url: v.video_mode === 'url' ? v.video_url.trim() : upload ? video.kept : null,
          // 'youtube' is the column's default when there is no video.
          video_type: upload ? 'direct' : v.video_mode === 'url' ? (videoUrlKind(v.video_url) ?? 'youtube') : 'youtube',
          priority: v.priority,
          is_active: v.is_active,
          turma_id: v.audience === 'turma' ? v.turma_id : null,
          email_students: v.audience === 'turma' && v.email_students,
        },
        file: upload ? video.file : null,
        send: video.send,
      },
      { onSuccess: onClose },
    );
  }

  return (
    <Dialog open onOpenChange={(o) => !o && !saving && onClose()}>
      <DialogContent className="max-w-2xl" onInteractOutside={(e) => e.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>
            O anúncio ativo de maior prioridade aparece para os alunos uma vez por dia.
          </DialogDescription>
        </DialogHeader>
        <FormProvider {...form}>
          <form noValidate aria-label={title} className="grid gap-4" onSubmit={handleSubmit(onSubmit)}>
            <FormField label="Título" error={errors.title?.message} required>
              <Input {...register('title')} />
            </FormField>
            <RadioChoiceField
              control={control}
              name="audience"
              id={id}
              label="Para quem"
              options={[
                ['school', 'Toda a escola'],
                ['turma', 'Uma turma'],
              ]}
            />
            {audience === 'turma' && (
              <div className="grid gap-4 sm:grid-cols-2 sm:items-start">
                <FormField label="Curso" error={errors.course_id?.message} required>
                  <Select {...register('course_id', { onChange: () => form.setValue('turma_id', '') })}>
                    <option value="">Selecione um curso</option>
                    <CourseOptions courses={courses} />
                  </Select>
                </FormField>
                <FormField
                  label="Turma"
                  error={errors.turma_id?.message}
                  hint={courseId && turmas.data?.length === 0 ? 'Este curso não tem turmas.' : 'Só os alunos da turma veem o comunicado.'}
                  required
                >
                  {/* Mounted again once the options arrive, so that the chosen turma shows selected. */}
                  <Select key={turmas.data ? 'loaded' : 'loading'} {...register('turma_id')}>
                    <option value="">Selecione a turma</option>
                    {(turmas.data ?? []).map((t) => (
                      <option key={t.id} value={t.id}>
                        {t.name}
                      </option>
                    ))}
                  </Select>
                </FormField>
                <div className="grid gap-1 sm:col-span-2">
                  <SwitchChoiceField control={control} name="email_students" id={id} label="Enviar também por e-mail" />
                  <p className="text-xs text-muted-foreground">
                    Cada aluno da turma recebe uma vez, menos quem desligou os comunicados por e-mail. Salvar de novo não reenvia.
                  </p>
                </div>
              </div>
            )}
            <div className="grid gap-2">
              <span id={`${id}-body-label`} className="text-sm font-medium">
                Mensagem
                <span aria-hidden="true" className="ml-0.5 text-destructive">
                  *
                </span>
              </span>
              <Controller
                control={control}
                name="body"
                render={({ field }) => (
                  <RichTextEditor
                    id={`${id}-body`}
                    labelledBy={`${id}-body-label`}
                    value={field.value}
                    onChange={field.onChange}
                    invalid={!!errors.body}
                    describedBy={errors.body ? `${id}-body-error` : undefined}
                  />
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
                <ImageField
                  label="Imagem"
                  value={field.value}
                  onChange={field.onChange}
                  upload={(f) => uploadPublicImage('course-thumbnails', schoolId, f)}
                  uploadErrorTitle="Erro ao fazer upload"
                />
              )}
            />
            <fieldset className="grid gap-3 rounded-xl border border-border p-4">
              <legend className="px-1 text-sm font-semibold">Vídeo</legend>
              <VideoSourceField
                source={video}
                groupLabel="Vídeo do anúncio"
                accept={ANNOUNCEMENT_VIDEO_ACCEPT}
                validateFile={validateAnnouncementVideo}
                fileHint="MP4 ou WebM até 500MB."
                disabled={saving}
              />
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
        </FormProvider>
      </DialogContent>
    </Dialog>
  );
}

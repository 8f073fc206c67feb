import { useId } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { ImageField } from '@/components/ui/image-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { Textarea } from '@/components/ui/textarea';
import { uploadPublicImage } from '@/platform/storage';
import { useSaveModule, type ModuleValues } from '../api/hooks';
import type { EditorModule } from '../api/queries';
import { moduleSchema, type ModuleFormValues as Values } from '../schemas';

const RELEASE_OPTIONS = [
  ['IMMEDIATE', 'Imediata'],
  ['AFTER_ENROLLMENT', 'Dias após a matrícula'],
  ['ON_DATE', 'Em uma data'],
] as const;

function toModuleValues(v: Values): ModuleValues {
  return {
    title: v.title,
    description: v.description,
    thumbnail_url: v.thumbnail_url,
    release_mode: v.release_mode,
    release_after_days: v.release_mode === 'AFTER_ENROLLMENT' ? Number(v.release_after_days) : null,
    release_on: v.release_mode === 'ON_DATE' ? v.release_on : null,
  };
}

export function ModuleDialog({
  open,
  onOpenChange,
  courseId,
  schoolId,
  module,
  orderIndex,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  courseId: string;
  schoolId: string;
  module: EditorModule | null;
  orderIndex: number;
}) {
  const id = useId();
  const save = useSaveModule(courseId);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<Values>({
    resolver: zodResolver(moduleSchema),
    values: {
      title: module?.title ?? '',
      description: module?.description ?? '',
      thumbnail_url: module?.thumbnail_url ?? null,
      release_mode: module?.release_mode ?? 'IMMEDIATE',
      release_after_days: module?.release_after_days?.toString() ?? '',
      release_on: module?.release_on ?? '',
    },
  });
  const releaseMode = useWatch({ control, name: 'release_mode' });
  const title = module ? 'Editar Módulo' : 'Novo Módulo';
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>Módulos agrupam as aulas do curso.</DialogDescription>
        </DialogHeader>
        <form
          noValidate
          aria-label={title}
          className="grid gap-4"
          onSubmit={handleSubmit((values) =>
            save.mutate(
              { id: module?.id, values: toModuleValues(values), orderIndex },
              { onSuccess: () => onOpenChange(false) },
            ),
          )}
        >
          <FormField label="Título" error={errors.title?.message} required>
            <Input {...register('title')} />
          </FormField>
          <FormField label="Descrição" error={errors.description?.message}>
            <Textarea rows={3} {...register('description')} />
          </FormField>
          <Controller
            control={control}
            name="thumbnail_url"
            render={({ field }) => (
              <ImageField
                label="Thumbnail do módulo"
                hint="JPG, PNG ou WEBP até 5MB. Proporção 4:3."
                aspect="4 / 3"
                value={field.value}
                onChange={field.onChange}
                upload={(file) => uploadPublicImage('course-thumbnails', schoolId, file)}
                uploadErrorTitle="Erro ao fazer upload"
              />
            )}
          />
          <div className="grid gap-2">
            <p id={`${id}-release`} className="text-sm leading-none font-medium">
              Liberação
            </p>
            <Controller
              control={control}
              name="release_mode"
              render={({ field }) => (
                <RadioGroup
                  value={field.value}
                  onValueChange={field.onChange}
                  aria-labelledby={`${id}-release`}
                  className="sm:grid-cols-3"
                >
                  {RELEASE_OPTIONS.map(([value, label]) => (
                    <div key={value} className="flex items-center gap-2 rounded-lg border border-border px-3 py-2">
                      <RadioGroupItem value={value} id={`${id}-release-${value}`} />
                      <Label htmlFor={`${id}-release-${value}`}>{label}</Label>
                    </div>
                  ))}
                </RadioGroup>
              )}
            />
          </div>
          {releaseMode === 'AFTER_ENROLLMENT' && (
            <FormField
              label="Dias após a matrícula"
              hint="Cada aluno vê o módulo liberado esse número de dias depois da própria matrícula."
              error={errors.release_after_days?.message}
              required
            >
              <Input
                type="number"
                inputMode="numeric"
                min={1}
                max={3650}
                step={1}
                className="sm:w-40"
                {...register('release_after_days')}
              />
            </FormField>
          )}
          {releaseMode === 'ON_DATE' && (
            <FormField
              label="Data de liberação"
              hint="O módulo é liberado às 00:00 (horário de Brasília) desta data."
              error={errors.release_on?.message}
              required
            >
              <Input type="date" className="sm:w-48" {...register('release_on')} />
            </FormField>
          )}
          <FormDialogFooter onCancel={() => onOpenChange(false)} pending={save.isPending} submitLabel="Salvar" />
        </form>
      </DialogContent>
    </Dialog>
  );
}

import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from '@/lib/zod';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { ImageField } from '@/components/ui/image-field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { uploadPublicImage } from '@/lib/storage';
import { useSaveModule } from '../api/hooks';
import type { EditorModule } from '../api/queries';

const schema = z.object({
  title: z.string().trim().min(1, 'Título é obrigatório').max(200, 'Máximo de 200 caracteres'),
  description: z.string().max(5000, 'Máximo de 5.000 caracteres'),
  thumbnail_url: z.string().nullable(),
});
type Values = z.infer<typeof schema>;

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
  const save = useSaveModule(courseId);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<Values>({
    resolver: zodResolver(schema),
    values: { title: module?.title ?? '', description: module?.description ?? '', thumbnail_url: module?.thumbnail_url ?? null },
  });
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
          onSubmit={handleSubmit((values) => save.mutate({ id: module?.id, values, orderIndex }, { onSuccess: () => onOpenChange(false) }))}
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
          <FormDialogFooter onCancel={() => onOpenChange(false)} pending={save.isPending} submitLabel="Salvar" />
        </form>
      </DialogContent>
    </Dialog>
  );
}

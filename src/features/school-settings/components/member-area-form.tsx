import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { ImageField } from '@/components/ui/image-field';
import { Input } from '@/components/ui/input';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { Textarea } from '@/components/ui/textarea';
import { useUnsavedChanges } from '@/components/ui/unsaved-changes';
import type { SchoolRow } from '@/platform/session';
import { uploadSchoolImage, useUpdateSchool } from '../api/hooks';
import { normalizeSlug } from '@/utils/slug';
import { memberAreaSchema, type MemberAreaInput, type MemberAreaValues } from '../schemas';
import { ColorField } from './color-field';

const formValues = (school: SchoolRow): MemberAreaInput => ({
  name: school.name,
  description: school.description ?? '',
  slug: school.slug,
  primary_color: school.primary_color,
  secondary_color: school.secondary_color,
  banner_url: school.banner_url,
  banner_position: school.banner_position,
});

/** The school's appearance: one form, saved by "Salvar Alterações"; leaving with changes asks first. */
export function MemberAreaForm({ school }: { school: SchoolRow }) {
  const update = useUpdateSchool(school.id, { success: 'Área de membros atualizada!', errorTitle: 'Erro ao atualizar' });
  const {
    register,
    control,
    handleSubmit,
    setValue,
    reset,
    formState: { errors, isDirty, defaultValues },
  } = useForm<MemberAreaInput, unknown, MemberAreaValues>({ resolver: zodResolver(memberAreaSchema), defaultValues: formValues(school) });
  useUnsavedChanges(isDirty);
  const [slug, bannerPosition, primary, secondary] = useWatch({ control, name: ['slug', 'banner_position', 'primary_color', 'secondary_color'] });
  const savedSlug = defaultValues?.slug ?? school.slug;

  function onSubmit(values: MemberAreaValues) {
    update.mutate({ ...values, description: values.description.trim() || null }, { onSuccess: (saved) => reset(formValues(saved)) });
  }

  return (
    <AdminPage className="max-w-4xl">
      <PageHeader title="Área de Membros" description="A aparência da sua escola para os alunos" />
      <form noValidate onSubmit={handleSubmit(onSubmit)} className="grid gap-6" aria-label="Área de Membros">
        <section className="grid gap-5 rounded-xl border border-border bg-white p-4 sm:p-6">
          <FormField label="Nome" error={errors.name?.message} required>
            <Input autoComplete="organization" {...register('name')} />
          </FormField>
          <FormField label="Descrição" error={errors.description?.message}>
            <Textarea rows={3} {...register('description')} />
          </FormField>
          <Controller
            control={control}
            name="slug"
            render={({ field }) => (
              <FormField
                label="Endereço na web"
                error={errors.slug?.message}
                hint={
                  slug !== savedSlug
                    ? `Atenção: o endereço de login passará a ser /${normalizeSlug(slug)}; o endereço antigo deixará de funcionar.`
                    : `Letras minúsculas, números e hífens. Endereço de login: /${savedSlug}`
                }
                required
              >
                <Input name={field.name} ref={field.ref} value={field.value} onBlur={field.onBlur} autoCapitalize="none" spellCheck={false} onChange={(e) => field.onChange(normalizeSlug(e.target.value))} />
              </FormField>
            )}
          />
          <div className="grid gap-5 sm:grid-cols-2">
            <ColorField label="Cor primária" value={primary} onChange={(v) => setValue('primary_color', v, { shouldDirty: true, shouldValidate: true })} error={errors.primary_color?.message} />
            <ColorField label="Cor secundária" value={secondary} onChange={(v) => setValue('secondary_color', v, { shouldDirty: true, shouldValidate: true })} error={errors.secondary_color?.message} />
          </div>
          <div aria-hidden="true" className="h-16 rounded-lg" style={{ background: `linear-gradient(135deg, ${primary}, ${secondary})` }} />
        </section>
        <Controller
          control={control}
          name="banner_url"
          render={({ field }) => (
            <ImageField
              label="Banner"
              hint="JPG, PNG ou WEBP até 5MB. Recomendado 16:9."
              aspect="16 / 9"
              value={field.value}
              onChange={field.onChange}
              position={bannerPosition}
              onPositionChange={(p) => setValue('banner_position', p, { shouldDirty: true })}
              upload={(file) => uploadSchoolImage(school.id, file)}
              uploadErrorTitle="Erro ao fazer upload"
            />
          )}
        />
        <div className="flex justify-end">
          <Button type="submit" disabled={update.isPending}>
            {update.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
            {update.isPending ? 'Salvando...' : 'Salvar Alterações'}
          </Button>
        </div>
      </form>
    </AdminPage>
  );
}

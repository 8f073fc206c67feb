import { useRef, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router-dom';
import { ArrowLeft, Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { buttonClasses } from '@/components/ui/button-variants';
import { FormField } from '@/components/ui/form-field';
import { ImageField } from '@/components/ui/image-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { formatMoney, moneyInput } from '@/utils/format';
import { uploadPublicImage } from '@/platform/storage';
import { describeError, refusedConstraint } from '@/platform/errors';
import { CourseCreatedError, useCourseOptions, useSaveCourse, type CourseBump, type CourseRow } from '../../api/admin-hooks';
import {
  COURSE_STATUSES,
  STATUS_LABEL,
  courseFormSchemaFor,
  installmentPreview,
  finalSlug,
  normalizeSlug,
  parsePrice,
  type CourseFormInput,
  type CourseFormValues,
} from '../../schemas';
import { CourseBumpSection } from './course-bump-section';

function formValuesFromCourse(course: CourseRow | null, bump: CourseBump | null): CourseFormInput {
  return {
    title: course?.title ?? '',
    slug: course?.slug ?? '',
    description: course?.description ?? '',
    purchase_url: course?.purchase_url ?? '',
    price: course ? Number(course.price).toFixed(2).replace('.', ',') : '0,00',
    max_installments: course?.max_installments ?? 1,
    status: (course?.status as CourseFormInput['status']) ?? 'DRAFT',
    total_lessons: course?.total_lessons ?? 0,
    thumbnail_url: course?.thumbnail_url ?? null,
    thumbnail_position: course?.thumbnail_position ?? '50% 50%',
    banner_url: course?.banner_url ?? null,
    banner_position: course?.banner_position ?? '50% 50%',
    certificate_enabled: course?.certificate_enabled ?? true,
    bump_enabled: !!bump,
    bump_course_id: bump?.bump_course_id ?? '',
    bump_price: bump ? moneyInput(bump.price) : '',
  };
}

export function CourseForm({ course, bump = null, schoolId, userId }: { course: CourseRow | null; bump?: CourseBump | null; schoolId: string; userId: string }) {
  const navigate = useNavigate();
  const save = useSaveCourse();
  const [schema] = useState(() => courseFormSchemaFor(course?.id ?? null));
  const options = useCourseOptions(schoolId).data?.filter((c) => c.id !== course?.id);
  // A new course's slug follows its title until the admin edits the slug.
  const slugTouched = useRef(!!course);
  const {
    register,
    control,
    handleSubmit,
    setValue,
    setError,
    formState: { errors },
  } = useForm<CourseFormInput, unknown, CourseFormValues>({ resolver: zodResolver(schema), defaultValues: formValuesFromCourse(course, bump) });
  const [price, installments, thumbnailPosition, bannerPosition] = useWatch({
    control,
    name: ['price', 'max_installments', 'thumbnail_position', 'banner_position'],
  });
  const preview = installmentPreview(parsePrice(price ?? ''), Number(installments), formatMoney);

  function onSubmit(values: CourseFormValues) {
    save.mutate(
      { id: course?.id, schoolId, instructorId: course?.instructor_id ?? userId, values, hadBump: !!bump },
      {
        onSuccess: () => navigate('/admin/courses'),
        onError: (error) => {
          // The toast says it too; the field shows where to fix it.
          if (refusedConstraint(error) === 'courses_school_slug_key') setError('slug', { message: describeError(error) }, { shouldFocus: true });
          // The course exists, its order bump was refused: go on editing that course, not a new one.
          if (error instanceof CourseCreatedError) navigate(`/admin/courses/${error.course.id}/edit`, { replace: true });
        },
      },
    );
  }

  const titleField = register('title');
  return (
    <AdminPage className="max-w-4xl">
      <Link to="/admin/courses" className={buttonClasses({ variant: 'ghost', size: 'sm', className: 'w-fit' })}>
        <ArrowLeft aria-hidden="true" /> Voltar
      </Link>
      <PageHeader title={course ? 'Editar Curso' : 'Novo Curso'} description={course ? course.title : 'Preencha os dados do novo curso'} />
      <form noValidate onSubmit={handleSubmit(onSubmit)} className="grid gap-6" aria-label={course ? 'Editar Curso' : 'Novo Curso'}>
        <section className="grid gap-5 rounded-xl border border-border bg-white p-4 sm:p-6">
          <FormField label="Título" error={errors.title?.message} required>
            <Input
              {...titleField}
              onChange={(e) => {
                void titleField.onChange(e);
                if (!slugTouched.current) setValue('slug', finalSlug(e.target.value));
              }}
            />
          </FormField>
          <Controller
            control={control}
            name="slug"
            render={({ field }) => (
              <FormField label="Endereço na web" error={errors.slug?.message} hint={`Letras minúsculas, números e hífens. Link de compra: /checkout/${field.value || 'endereco-do-curso'}`} required>
                <Input
                  name={field.name}
                  ref={field.ref}
                  value={field.value}
                  onBlur={field.onBlur}
                  autoCapitalize="none"
                  spellCheck={false}
                  onChange={(e) => {
                    slugTouched.current = true;
                    field.onChange(normalizeSlug(e.target.value));
                  }}
                />
              </FormField>
            )}
          />
          <FormField label="Descrição" error={errors.description?.message}>
            <Textarea rows={4} {...register('description')} />
          </FormField>
          <FormField label="Link de compra" error={errors.purchase_url?.message} hint="Opcional: uma página de vendas externa. Sem link, o aluno compra pelo checkout da plataforma.">
            <Input type="url" inputMode="url" placeholder="https://..." {...register('purchase_url')} />
          </FormField>
          <div className="grid gap-5 sm:grid-cols-2">
            <FormField label="Preço (R$)" error={errors.price?.message} hint="Ex.: 297,00" required>
              <Input inputMode="decimal" autoComplete="off" {...register('price')} />
            </FormField>
            <FormField label="Máximo de parcelas" error={errors.max_installments?.message} hint={preview ?? 'À vista'} required>
              <Input type="number" min={1} max={12} step={1} inputMode="numeric" {...register('max_installments')} />
            </FormField>
            <FormField label="Status" error={errors.status?.message} required>
              <Select {...register('status')}>
                {COURSE_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {STATUS_LABEL[s]}
                  </option>
                ))}
              </Select>
            </FormField>
            <FormField label="Total de aulas" error={errors.total_lessons?.message}>
              <Input type="number" min={0} step={1} inputMode="numeric" {...register('total_lessons')} />
            </FormField>
          </div>
          {preview && (
            <p className="text-sm font-medium" aria-live="polite">
              Parcelamento: {preview}
            </p>
          )}
        </section>
        <CourseBumpSection control={control} register={register} errors={errors} options={options} />
        <Controller
          control={control}
          name="certificate_enabled"
          render={({ field }) => (
            <section className="flex items-start gap-3 rounded-xl border border-border bg-white p-4 sm:p-6">
              <Switch id="course-certificate" ref={field.ref} checked={field.value ?? true} onCheckedChange={field.onChange} aria-describedby="course-certificate-hint" />
              <div className="grid gap-1">
                <Label htmlFor="course-certificate">Emitir certificado de conclusão</Label>
                <p id="course-certificate-hint" className="text-xs text-muted-foreground">
                  Quem concluir todas as aulas baixa um certificado em PDF com a carga horária e um código de verificação.
                </p>
              </div>
            </section>
          )}
        />
        <Controller
          control={control}
          name="thumbnail_url"
          render={({ field }) => (
            <ImageField
              label="Thumbnail"
              hint="JPG, PNG ou WEBP até 5MB. Proporção 16:9 (1920x1080)."
              aspect="16 / 9"
              value={field.value}
              onChange={field.onChange}
              position={thumbnailPosition}
              onPositionChange={(p) => setValue('thumbnail_position', p, { shouldDirty: true })}
              upload={(file) => uploadPublicImage('course-thumbnails', schoolId, file)}
              uploadErrorTitle="Erro ao fazer upload da thumbnail"
            />
          )}
        />
        <Controller
          control={control}
          name="banner_url"
          render={({ field }) => (
            <ImageField
              label="Banner"
              hint="JPG, PNG ou WEBP até 5MB. Proporção 21:9 (2100x900)."
              aspect="21 / 9"
              value={field.value}
              onChange={field.onChange}
              position={bannerPosition}
              onPositionChange={(p) => setValue('banner_position', p, { shouldDirty: true })}
              upload={(file) => uploadPublicImage('course-thumbnails', schoolId, file)}
              uploadErrorTitle="Erro ao fazer upload do banner"
            />
          )}
        />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Link to="/admin/courses" className={buttonClasses({ variant: 'outline' })}>
            Cancelar
          </Link>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
            {save.isPending ? 'Salvando...' : course ? 'Salvar Alterações' : 'Criar Curso'}
          </Button>
        </div>
      </form>
    </AdminPage>
  );
}

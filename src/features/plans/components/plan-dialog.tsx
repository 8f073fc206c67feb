// The staff's dialog to create or edit a plan: name, slug (following the name until edited),
// description, the courses it opens, monthly or yearly, price, payment methods, active.
import { useId, useRef } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { CheckboxList } from '@/components/ui/checkbox-list';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { SwitchField } from '@/components/ui/switch-field';
import { Textarea } from '@/components/ui/textarea';
import { describeError, refusedConstraint } from '@/platform/errors';
import { moneyInput } from '@/utils/format';
import { BILLING_TYPES, BILLING_TYPE_LABEL, CYCLE_LABEL, PLAN_CYCLES } from '@/concepts/subscriptions';
import { useSavePlan, type AdminPlan } from '../api/admin-hooks';
import { finalSlug, normalizeSlug, planFormSchema, type PlanFormInput, type PlanFormValues } from '../schemas';

export interface PlanCourse {
  id: string;
  title: string;
}

function formValues(p: AdminPlan | null): PlanFormInput {
  return {
    name: p?.name ?? '',
    slug: p?.slug ?? '',
    description: p?.description ?? '',
    course_ids: p?.course_ids ?? [],
    cycle: p?.cycle ?? 'MONTHLY',
    price: p ? moneyInput(p.price) : '',
    billing_types: p?.billing_types ?? [...BILLING_TYPES],
    is_active: p?.is_active ?? true,
  };
}

export function PlanDialog({
  plan,
  schoolId,
  courses,
  onClose,
}: {
  plan: AdminPlan | null;
  schoolId: string;
  courses: PlanCourse[];
  onClose: () => void;
}) {
  const id = useId();
  const save = useSavePlan();
  // A new plan's slug follows its name until the staff edits the slug.
  const slugTouched = useRef(!!plan);
  const {
    register,
    control,
    handleSubmit,
    setValue,
    setError,
    formState: { errors },
  } = useForm<PlanFormInput, unknown, PlanFormValues>({
    resolver: zodResolver(planFormSchema),
    defaultValues: formValues(plan),
  });
  const title = plan ? 'Editar Plano' : 'Novo Plano';
  const nameField = register('name');

  function onSubmit(values: PlanFormValues) {
    save.mutate(
      { plan: plan ?? undefined, schoolId, values },
      {
        onSuccess: onClose,
        // The toast says it too; the field shows where to fix it.
        onError: (error) =>
          refusedConstraint(error) === 'plans_school_slug_key' &&
          setError('slug', { message: describeError(error) }, { shouldFocus: true }),
      },
    );
  }

  return (
    <Dialog open onOpenChange={(o) => !o && !save.isPending && onClose()}>
      <DialogContent className="max-w-2xl" onInteractOutside={(e) => e.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>
            Enquanto a assinatura estiver paga, o assinante acessa todos os cursos incluídos.
          </DialogDescription>
        </DialogHeader>
        <form noValidate aria-label={title} className="grid gap-4" onSubmit={handleSubmit(onSubmit)}>
          <div className="grid gap-4 sm:grid-cols-2 sm:items-start">
            <FormField label="Nome" error={errors.name?.message} required>
              <Input
                {...nameField}
                autoComplete="off"
                placeholder="Plano Completo"
                onChange={(e) => {
                  void nameField.onChange(e);
                  if (!slugTouched.current) setValue('slug', finalSlug(e.target.value));
                }}
              />
            </FormField>
            <Controller
              control={control}
              name="slug"
              render={({ field }) => (
                <FormField
                  label="Endereço na web"
                  error={errors.slug?.message}
                  hint={`Letras minúsculas, números e hífens. Link do checkout: /checkout/plano/${field.value || 'endereco-do-plano'}`}
                  required
                >
                  <Input
                    name={field.name}
                    ref={field.ref}
                    value={field.value}
                    onBlur={field.onBlur}
                    autoCapitalize="none"
                    autoComplete="off"
                    spellCheck={false}
                    onChange={(e) => {
                      slugTouched.current = true;
                      field.onChange(normalizeSlug(e.target.value));
                    }}
                  />
                </FormField>
              )}
            />
          </div>
          <FormField label="Descrição" error={errors.description?.message}>
            <Textarea rows={3} {...register('description')} />
          </FormField>
          <Controller
            control={control}
            name="course_ids"
            render={({ field }) => (
              <CheckboxList
                id={`${id}-courses`}
                legend="Cursos incluídos"
                required
                options={courses.map((c) => ({ value: c.id, label: c.title }))}
                value={field.value}
                onChange={field.onChange}
                error={errors.course_ids?.message}
                empty="A escola ainda não tem cursos."
              />
            )}
          />
          <div className="grid gap-4 sm:grid-cols-2 sm:items-start">
            <div className="grid gap-2">
              <span id={`${id}-cycle`} className="text-sm font-medium">
                Ciclo
              </span>
              <Controller
                control={control}
                name="cycle"
                render={({ field }) => (
                  <RadioGroup
                    value={field.value}
                    onValueChange={field.onChange}
                    aria-labelledby={`${id}-cycle`}
                    className="sm:grid-cols-2"
                  >
                    {PLAN_CYCLES.map((c) => (
                      <div key={c} className="flex items-center gap-2 rounded-lg border border-border px-3 py-2">
                        <RadioGroupItem value={c} id={`${id}-cycle-${c}`} />
                        <Label htmlFor={`${id}-cycle-${c}`}>{CYCLE_LABEL[c]}</Label>
                      </div>
                    ))}
                  </RadioGroup>
                )}
              />
            </div>
            <FormField
              label="Preço (R$)"
              error={errors.price?.message}
              hint="Cobrado a cada ciclo. Mínimo R$ 5,00."
              required
            >
              <Input inputMode="decimal" autoComplete="off" placeholder="49,90" {...register('price')} />
            </FormField>
          </div>
          <Controller
            control={control}
            name="billing_types"
            render={({ field }) => (
              <CheckboxList
                id={`${id}-methods`}
                legend="Formas de pagamento"
                required
                options={BILLING_TYPES.map((b) => ({ value: b, label: BILLING_TYPE_LABEL[b] }))}
                value={field.value}
                onChange={field.onChange}
                error={errors.billing_types?.message}
                listClassName="grid gap-1 sm:grid-cols-3"
              />
            )}
          />
          <Controller
            control={control}
            name="is_active"
            render={({ field }) => (
              <SwitchField
                id={`${id}-active`}
                ref={field.ref}
                checked={field.value}
                onCheckedChange={field.onChange}
                label="Ativo"
              />
            )}
          />
          <FormDialogFooter onCancel={onClose} pending={save.isPending} submitLabel="Salvar" />
        </form>
      </DialogContent>
    </Dialog>
  );
}

// The staff's dialog to create or edit a plan: name, slug (following the name until edited),
// description, the courses it opens, monthly or yearly, price, payment methods, active.
import { useId, useRef } from 'react';
import { useWatch } from 'react-hook-form';
import { CheckboxListField, NormalizedTextField, RadioChoiceField, SwitchChoiceField } from '@/components/ui/choice-fields';
import type { CourseScopedDialogProps } from '@/concepts/course-filter';
import { TurmaChoiceField } from '@/concepts/turma-choice-field';
import { FormDialog } from '@/components/ui/form-dialog';
import { useFormDialogForm } from '@/components/ui/use-form-dialog-form';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { moneyInput } from '@/utils/format';
import { BILLING_TYPES, BILLING_TYPE_LABEL, CYCLE_LABEL, PLAN_CYCLES } from '@/concepts/subscriptions';
import { useSavePlan, type AdminPlan } from '../api/admin-hooks';
import { finalSlug, normalizeSlug, planFormSchema, type PlanFormInput } from '../schemas';

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
    turma_id: p?.turma_id ?? '',
  };
}

export function PlanDialog({ editing: plan, schoolId, courses, onClose }: CourseScopedDialogProps<AdminPlan>) {
  const id = useId();
  const save = useSavePlan();
  // A new plan's slug follows its name until the staff edits the slug.
  const slugTouched = useRef(!!plan);
  const { form, dialog } = useFormDialogForm(planFormSchema, formValues(plan), {
    save: (values) => save.mutateAsync({ plan: plan ?? undefined, schoolId, values }),
    onClose,
    taken: ['plans_school_slug_key', 'slug'],
  });
  const { register, control, setValue } = form;
  const errors = form.formState.errors;
  const title = plan ? 'Editar Plano' : 'Novo Plano';
  const bound = (name: 'cycle' | 'course_ids' | 'billing_types' | 'is_active') => ({ control, name, id });
  const nameField = register('name');
  const courseIds = useWatch({ control, name: 'course_ids' });

  return (
    <FormDialog
      title={title}
      description="Enquanto a assinatura estiver paga, o assinante acessa todos os cursos incluídos."
      {...dialog}
    >
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
        <NormalizedTextField
          control={control}
          name="slug"
          label="Endereço na web"
          error={errors.slug?.message}
          hint={(slug) =>
            `Letras minúsculas, números e hífens. Link do checkout: /checkout/plano/${slug || 'endereco-do-plano'}`
          }
          normalize={normalizeSlug}
          onType={() => (slugTouched.current = true)}
          autoCapitalize="none"
        />
      </div>
      <FormField label="Descrição" error={errors.description?.message}>
        <Textarea rows={3} {...register('description')} />
      </FormField>
      <CheckboxListField
        {...bound('course_ids')}
        legend="Cursos incluídos"
        required
        options={courses.map((c) => ({ value: c.id, label: c.title }))}
        error={errors.course_ids?.message}
        empty="A escola ainda não tem cursos."
      />
      <TurmaChoiceField
        control={control}
        name="turma_id"
        courseIds={courseIds}
        courses={courses}
        none="Nenhuma turma"
        hint="Com uma turma, quem assina entra nela no curso dela; os outros cursos, sem turma."
      />
      <div className="grid gap-4 sm:grid-cols-2 sm:items-start">
        <RadioChoiceField
          {...bound('cycle')}
          label="Ciclo"
          options={PLAN_CYCLES.map((c) => [c, CYCLE_LABEL[c]] as const)}
        />
        <FormField
          label="Preço (R$)"
          error={errors.price?.message}
          hint="Cobrado a cada ciclo. Mínimo R$ 5,00."
          required
        >
          <Input inputMode="decimal" autoComplete="off" placeholder="49,90" {...register('price')} />
        </FormField>
      </div>
      <CheckboxListField
        {...bound('billing_types')}
        legend="Formas de pagamento"
        required
        options={BILLING_TYPES.map((b) => ({ value: b, label: BILLING_TYPE_LABEL[b] }))}
        error={errors.billing_types?.message}
        listClassName="grid gap-1 sm:grid-cols-3"
      />
      <SwitchChoiceField {...bound('is_active')} label="Ativo" />
    </FormDialog>
  );
}

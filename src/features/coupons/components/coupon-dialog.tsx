// The staff's dialog to create or edit a coupon: code, percentage or fixed value, validity (São Paulo
// days), use limits in total and per buyer, every course or a list, active.
import { useId } from 'react';
import { useWatch } from 'react-hook-form';
import { CheckboxListField, NormalizedTextField, RadioChoiceField, SwitchChoiceField } from '@/components/ui/choice-fields';
import type { CourseScopedDialogProps } from '@/concepts/course-filter';
import { TurmaChoiceField } from '@/concepts/turma-choice-field';
import { FormDialog } from '@/components/ui/form-dialog';
import { useFormDialogForm } from '@/components/ui/use-form-dialog-form';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { moneyInput } from '@/utils/format';
import { useSaveCoupon, type AdminCoupon } from '../api/hooks';
import {
  COUPON_KINDS,
  KIND_LABEL,
  couponFormSchema,
  dayInSaoPaulo,
  normalizeCouponCode,
  type CouponFormInput,
} from '../schemas';

function formValues(c: AdminCoupon | null): CouponFormInput {
  return {
    code: c?.code ?? '',
    kind: c?.kind ?? 'percent',
    amount: !c ? '' : c.kind === 'fixed' ? moneyInput(c.amount) : String(c.amount).replace('.', ','),
    valid_from: dayInSaoPaulo(c?.valid_from),
    valid_until: dayInSaoPaulo(c?.valid_until),
    max_uses: c?.max_uses ? String(c.max_uses) : '',
    max_uses_per_buyer: c?.max_uses_per_buyer ? String(c.max_uses_per_buyer) : '',
    all_courses: !c || c.all_courses ? 'all' : 'selected',
    course_ids: c?.course_ids ?? [],
    is_active: c?.is_active ?? true,
    turma_id: c?.turma_id ?? '',
  };
}

export function CouponDialog({ editing: coupon, schoolId, courses, onClose }: CourseScopedDialogProps<AdminCoupon>) {
  const id = useId();
  const save = useSaveCoupon();
  const { form, dialog } = useFormDialogForm(couponFormSchema, formValues(coupon), {
    save: (values) => save.mutateAsync({ coupon: coupon ?? undefined, schoolId, values }),
    onClose,
    taken: ['coupons_school_code_key', 'code'],
  });
  const { register, control } = form;
  const errors = form.formState.errors;
  const [kind, scope, courseIds] = useWatch({ control, name: ['kind', 'all_courses', 'course_ids'] });
  const title = coupon ? 'Editar Cupom' : 'Novo Cupom';
  const bound = (name: 'kind' | 'all_courses' | 'course_ids' | 'is_active') => ({ control, name, id });

  return (
    <FormDialog
      title={title}
      description="O desconto vale sobre o preço do curso à venda (não sobre a oferta adicional), e o total fica em pelo menos R$ 5,00."
      {...dialog}
    >
      <NormalizedTextField
        control={control}
        name="code"
        label="Código"
        error={errors.code?.message}
        hint={() => 'Letras, números, - e _ (3 a 40). O aluno pode digitar em maiúsculas ou minúsculas.'}
        normalize={normalizeCouponCode}
        autoCapitalize="characters"
        placeholder="BEMVINDO20"
      />
      <div className="grid gap-4 sm:grid-cols-2 sm:items-start">
        <RadioChoiceField
          {...bound('kind')}
          label="Tipo de desconto"
          options={COUPON_KINDS.map((k) => [k, KIND_LABEL[k]] as const)}
        />
        <FormField
          label={kind === 'fixed' ? 'Valor (R$)' : 'Valor (%)'}
          error={errors.amount?.message}
          hint={kind === 'fixed' ? 'Ex.: 50,00' : 'Ex.: 20 para 20% de desconto'}
          required
        >
          <Input inputMode="decimal" autoComplete="off" {...register('amount')} />
        </FormField>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label="Válido a partir de"
          error={errors.valid_from?.message}
          hint="Vazio: já vale. Começa às 00:00 (Brasília)."
        >
          <Input type="date" {...register('valid_from')} />
        </FormField>
        <FormField
          label="Válido até"
          error={errors.valid_until?.message}
          hint="Vazio: não expira. Vale até 23:59 (Brasília)."
        >
          <Input type="date" {...register('valid_until')} />
        </FormField>
        <FormField label="Limite de usos (total)" error={errors.max_uses?.message} hint="Vazio: sem limite.">
          <Input inputMode="numeric" autoComplete="off" {...register('max_uses')} />
        </FormField>
        <FormField label="Limite por comprador" error={errors.max_uses_per_buyer?.message} hint="Vazio: sem limite.">
          <Input inputMode="numeric" autoComplete="off" {...register('max_uses_per_buyer')} />
        </FormField>
      </div>
      <RadioChoiceField
        {...bound('all_courses')}
        label="Cursos"
        options={[
          ['all', 'Todos os cursos'],
          ['selected', 'Cursos selecionados'],
        ]}
      />
      {scope === 'selected' && (
        <CheckboxListField
          {...bound('course_ids')}
          legend="Cursos em que o cupom vale"
          options={courses.map((c) => ({ value: c.id, label: c.title }))}
          error={errors.course_ids?.message}
          empty="A escola ainda não tem cursos."
        />
      )}
      {scope === 'selected' && (
        <TurmaChoiceField
          control={control}
          name="turma_id"
          courseIds={courseIds}
          courses={courses}
          none="Qualquer turma"
          hint="Com uma turma, o cupom só dá desconto quando o checkout vende essa turma."
        />
      )}
      <SwitchChoiceField {...bound('is_active')} label="Ativo" />
    </FormDialog>
  );
}

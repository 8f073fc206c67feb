// The staff's dialog to create or edit a coupon: code, percentage or fixed value, validity (São Paulo
// days), use limits in total and per buyer, every course or a list, active.
import { useId } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { CheckboxList } from '@/components/ui/checkbox-list';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { SwitchField } from '@/components/ui/switch-field';
import { describeError, refusedConstraint } from '@/platform/errors';
import { moneyInput } from '@/utils/format';
import { useSaveCoupon, type AdminCoupon } from '../api/hooks';
import {
  COUPON_KINDS,
  KIND_LABEL,
  couponFormSchema,
  dayInSaoPaulo,
  normalizeCouponCode,
  type CouponFormInput,
  type CouponFormValues,
} from '../schemas';

export interface CouponCourse {
  id: string;
  title: string;
}

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
  };
}

export function CouponDialog({
  coupon,
  schoolId,
  courses,
  onClose,
}: {
  coupon: AdminCoupon | null;
  schoolId: string;
  courses: CouponCourse[];
  onClose: () => void;
}) {
  const id = useId();
  const save = useSaveCoupon();
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<CouponFormInput, unknown, CouponFormValues>({
    resolver: zodResolver(couponFormSchema),
    defaultValues: formValues(coupon),
  });
  const [kind, scope] = useWatch({ control, name: ['kind', 'all_courses'] });
  const title = coupon ? 'Editar Cupom' : 'Novo Cupom';

  function onSubmit(values: CouponFormValues) {
    save.mutate(
      { coupon: coupon ?? undefined, schoolId, values },
      {
        onSuccess: onClose,
        // The toast says it too; the field shows where to fix it.
        onError: (error) =>
          refusedConstraint(error) === 'coupons_school_code_key' &&
          setError('code', { message: describeError(error) }, { shouldFocus: true }),
      },
    );
  }

  const radio = (name: 'kind' | 'all_courses', label: string, options: [string, string][]) => (
    <div className="grid gap-2">
      <span id={`${id}-${name}`} className="text-sm font-medium">
        {label}
      </span>
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <RadioGroup
            value={field.value}
            onValueChange={field.onChange}
            aria-labelledby={`${id}-${name}`}
            className="sm:grid-cols-2"
          >
            {options.map(([value, text]) => (
              <div key={value} className="flex items-center gap-2 rounded-lg border border-border px-3 py-2">
                <RadioGroupItem value={value} id={`${id}-${name}-${value}`} />
                <Label htmlFor={`${id}-${name}-${value}`}>{text}</Label>
              </div>
            ))}
          </RadioGroup>
        )}
      />
    </div>
  );

  return (
    <Dialog open onOpenChange={(o) => !o && !save.isPending && onClose()}>
      <DialogContent className="max-w-2xl" onInteractOutside={(e) => e.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>
            O desconto vale sobre o preço do curso à venda (não sobre a oferta adicional), e o total fica em pelo menos R$
            5,00.
          </DialogDescription>
        </DialogHeader>
        <form noValidate aria-label={title} className="grid gap-4" onSubmit={handleSubmit(onSubmit)}>
          <Controller
            control={control}
            name="code"
            render={({ field }) => (
              <FormField
                label="Código"
                error={errors.code?.message}
                hint="Letras, números, - e _ (3 a 40). O aluno pode digitar em maiúsculas ou minúsculas."
                required
              >
                <Input
                  name={field.name}
                  ref={field.ref}
                  value={field.value}
                  onBlur={field.onBlur}
                  onChange={(e) => field.onChange(normalizeCouponCode(e.target.value))}
                  autoCapitalize="characters"
                  autoComplete="off"
                  spellCheck={false}
                  placeholder="BEMVINDO20"
                />
              </FormField>
            )}
          />
          <div className="grid gap-4 sm:grid-cols-2 sm:items-start">
            {radio(
              'kind',
              'Tipo de desconto',
              COUPON_KINDS.map((k) => [k, KIND_LABEL[k]]),
            )}
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
            <FormField
              label="Limite por comprador"
              error={errors.max_uses_per_buyer?.message}
              hint="Vazio: sem limite."
            >
              <Input inputMode="numeric" autoComplete="off" {...register('max_uses_per_buyer')} />
            </FormField>
          </div>
          {radio('all_courses', 'Cursos', [
            ['all', 'Todos os cursos'],
            ['selected', 'Cursos selecionados'],
          ])}
          {scope === 'selected' && (
            <Controller
              control={control}
              name="course_ids"
              render={({ field }) => (
                <CheckboxList
                  id={`${id}-courses`}
                  legend="Cursos em que o cupom vale"
                  options={courses.map((c) => ({ value: c.id, label: c.title }))}
                  value={field.value}
                  onChange={field.onChange}
                  error={errors.course_ids?.message}
                  empty="A escola ainda não tem cursos."
                />
              )}
            />
          )}
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

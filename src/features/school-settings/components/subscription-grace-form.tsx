import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { useUnsavedChanges } from '@/components/ui/unsaved-changes';
import type { SchoolRow } from '@/platform/session';
import { useUpdateSchool } from '../api/hooks';
import { subscriptionGraceSchema, type SubscriptionGraceInput, type SubscriptionGraceValues } from '../schemas';

/**
 * Settings (issue 24): how many days a subscription's invoice may stay unpaid before the daily check
 * pauses the plan's courses (public.check_subscription_access); paying restores them.
 */
export function SubscriptionGraceForm({ school }: { school: SchoolRow }) {
  const update = useUpdateSchool(school.id, {
    success: 'Tolerância das assinaturas atualizada!',
    errorTitle: 'Erro ao atualizar',
  });
  const {
    register,
    handleSubmit,
    reset,
    getValues,
    formState: { errors, isDirty },
  } = useForm<SubscriptionGraceInput, unknown, SubscriptionGraceValues>({
    resolver: zodResolver(subscriptionGraceSchema),
    defaultValues: { subscription_grace_days: String(school.subscription_grace_days ?? 5) },
  });
  useUnsavedChanges(isDirty);
  return (
    <section
      className="grid gap-4 rounded-xl border border-border bg-white p-4 sm:p-6"
      aria-labelledby="settings-subscriptions"
    >
      <div>
        <h2 id="settings-subscriptions" className="text-lg font-semibold">
          Assinaturas
        </h2>
        <p className="text-sm text-muted-foreground">
          Quando uma cobrança de assinatura vence sem pagamento, o aluno continua acessando os cursos do plano por estes
          dias; depois, o acesso é pausado até o pagamento.
        </p>
      </div>
      <form
        noValidate
        aria-label="Tolerância das assinaturas"
        className="grid gap-4 sm:grid-cols-[1fr_auto] sm:items-start"
        onSubmit={handleSubmit((v) => update.mutate({ subscription_grace_days: v.subscription_grace_days }, { onSuccess: () => reset(getValues()) }))}
      >
        <FormField
          label="Dias de tolerância para assinaturas em atraso"
          error={errors.subscription_grace_days?.message}
          hint="De 0 a 60 dias. Padrão: 5."
        >
          <Input type="number" inputMode="numeric" min={0} max={60} step={1} {...register('subscription_grace_days')} />
        </FormField>
        <Button type="submit" className="sm:mt-6" disabled={update.isPending}>
          {update.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          Salvar
        </Button>
      </form>
    </section>
  );
}

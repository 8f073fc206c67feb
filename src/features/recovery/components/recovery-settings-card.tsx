/**
 * Configurações → Recuperação de vendas (issue 41): the follow-up e-mails of an abandoned checkout. The
 * switch saves at once ("Salvo"); the delays and the last e-mail's coupon are typed, saved by their
 * "Salvar" and guarded until then (docs/conventions.md, "Settings"). No row: on, with the defaults.
 */
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { LoadError } from '@/components/ui/load-error';
import { SettingSwitch } from '@/components/ui/setting-switch';
import { Skeleton } from '@/components/ui/skeleton';
import { useUnsavedChanges } from '@/components/ui/unsaved-changes';
import { useRecoverySettings, useSaveRecoverySettings, useSetRecoveryEnabled } from '../api/hooks';
import type { RecoverySettings } from '../api/queries';
import { recoverySettingsInput, recoverySettingsSchema, type RecoverySettingsInput, type RecoverySettingsValues } from '../schemas';

export function RecoverySettingsCard({ schoolId }: { schoolId: string }) {
  const id = useId();
  const settings = useRecoverySettings(schoolId);
  const setEnabled = useSetRecoveryEnabled(schoolId);
  return (
    <section className="grid gap-4 rounded-xl border border-border bg-white p-4 sm:p-6" aria-labelledby={`${id}-title`}>
      <div>
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          Recuperação de vendas
        </h2>
        <p className="text-sm text-muted-foreground">E-mails para quem abriu o checkout ou gerou um PIX ou boleto e não pagou, com um link que retoma a compra como a pessoa deixou.</p>
      </div>
      {settings.isPending ? (
        <Skeleton className="h-56" />
      ) : settings.isError ? (
        <LoadError title="Não foi possível carregar a recuperação de vendas" onRetry={settings.refetch} />
      ) : (
        <>
          <SettingSwitch
            label="Enviar e-mails de recuperação"
            description="Até 3 e-mails após o abandono, no máximo um por dia para cada comprador. Param quando a pessoa paga, descadastra-se ou a equipe marca “Não contatar”."
            checked={settings.data.enabled}
            onSave={(on) => setEnabled.mutateAsync(on)}
          />
          <RecoveryDelaysForm schoolId={schoolId} settings={settings.data} />
        </>
      )}
    </section>
  );
}

function RecoveryDelaysForm({ schoolId, settings }: { schoolId: string; settings: RecoverySettings }) {
  const save = useSaveRecoverySettings(schoolId);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = useForm<RecoverySettingsInput, unknown, RecoverySettingsValues>({ resolver: zodResolver(recoverySettingsSchema), defaultValues: recoverySettingsInput(settings) });
  useUnsavedChanges(isDirty);
  return (
    <form
      noValidate
      aria-label="E-mails de recuperação"
      className="grid gap-4 border-t border-border pt-4"
      onSubmit={handleSubmit((v) => save.mutate(v, { onSuccess: (saved) => reset(recoverySettingsInput(saved)) }))}
    >
      <fieldset className="grid gap-4">
        <legend className="mb-1 text-sm font-medium">Quando enviar (horas após o abandono)</legend>
        <div className="grid gap-4 sm:grid-cols-3">
          <FormField label="1º e-mail" hint="Padrão: 1 hora." error={errors.first?.message} className="content-start">
            <Input inputMode="decimal" autoComplete="off" {...register('first')} />
          </FormField>
          <FormField label="2º e-mail" hint="Vazio: não envia. Padrão: 24." error={errors.second?.message} className="content-start">
            <Input inputMode="decimal" autoComplete="off" {...register('second')} />
          </FormField>
          <FormField label="3º e-mail" hint="Vazio: não envia. Padrão: 72." error={errors.third?.message} className="content-start">
            <Input inputMode="decimal" autoComplete="off" {...register('third')} />
          </FormField>
        </div>
      </fieldset>
      <FormField
        label="Cupom no último e-mail (%)"
        hint="Vazio: sem cupom. Um cupom de uso único, só para aquele comprador e curso, válido por 48 horas. Assinaturas de planos não recebem cupom."
        error={errors.coupon_percent?.message}
      >
        <Input inputMode="numeric" autoComplete="off" className="sm:max-w-xs" {...register('coupon_percent')} />
      </FormField>
      <Button type="submit" className="w-fit" disabled={save.isPending}>
        {save.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
        Salvar
      </Button>
    </form>
  );
}

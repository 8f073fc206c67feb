/**
 * Configurações → Notas fiscais (issue 42, docs/nota-fiscal.md). First what Asaas's fiscal check finds
 * missing (each item with where to fix it), then the switch, refused until nothing is missing (saved at
 * once, "Salvo"); then the typed setting with its "Salvar": when to issue, the municipal service (searched
 * in Asaas's list of the municipality), the description template and the taxes (docs/conventions.md, "Settings").
 */
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { AlertTriangle, CheckCircle2, Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { RadioChoiceField } from '@/components/ui/choice-fields';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { LoadError } from '@/components/ui/load-error';
import { SettingSwitch } from '@/components/ui/setting-switch';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { useUnsavedChanges } from '@/components/ui/unsaved-changes';
import { useFiscalCheck, useInvoiceSettings, useSaveInvoiceSettings, useSetInvoicesEnabled } from '../../api/hooks';
import type { InvoiceSettings, MissingFiscalItem } from '../../api/queries';
import { ServicePicker } from './service-picker';
import {
  TEMPLATE_PLACEHOLDERS,
  invoiceSettingsInput,
  invoiceSettingsSchema,
  toInvoiceSettingsWrite,
  type InvoiceSettingsInput,
} from '../../schemas';

export function InvoiceSettingsCard({ schoolId }: { schoolId: string }) {
  const id = useId();
  const settings = useInvoiceSettings(schoolId);
  const check = useFiscalCheck(schoolId);
  const setEnabled = useSetInvoicesEnabled(schoolId);
  const missing = check.data?.missing ?? [];
  return (
    <section className="grid gap-4 rounded-xl border border-border bg-white p-4 sm:p-6" aria-labelledby={`${id}-title`}>
      <div>
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          Notas fiscais
        </h2>
        <p className="text-sm text-muted-foreground">
          A nota fiscal de serviço (NFS-e) de cada venda, emitida pelo Asaas na prefeitura da sua conta, enviada ao
          comprador e cancelada num reembolso.
        </p>
      </div>
      {settings.isPending ? (
        <Skeleton className="h-56" />
      ) : settings.isError ? (
        <LoadError title="Não foi possível carregar as notas fiscais" onRetry={settings.refetch} />
      ) : (
        <>
          {check.isPending ? (
            <p className="flex items-center gap-2 text-sm text-muted-foreground">
              <Loader2 className="size-4 animate-spin" aria-hidden="true" /> Conferindo as informações fiscais no
              Asaas...
            </p>
          ) : check.isError ? (
            <LoadError title="Não foi possível conferir as informações fiscais no Asaas" onRetry={check.refetch} />
          ) : missing.length > 0 ? (
            <MissingList items={missing} />
          ) : (
            <p className="flex items-center gap-2 text-sm text-emerald-700">
              <CheckCircle2 className="size-4" aria-hidden="true" /> Informações fiscais completas no Asaas.
            </p>
          )}
          <SettingSwitch
            label="Emitir notas fiscais"
            description={
              settings.data.enabled || (check.isSuccess && missing.length === 0)
                ? 'Cada pagamento confirmado de agora em diante recebe a sua nota. Vendas anteriores não são emitidas.'
                : 'Complete as informações acima para ligar.'
            }
            checked={settings.data.enabled}
            // Off is always allowed; on only when the check finds nothing missing (the server refuses it too).
            disabled={!settings.data.enabled && !(check.isSuccess && missing.length === 0)}
            onSave={(on) => setEnabled.mutateAsync(on)}
          />
          <InvoiceSettingsForm schoolId={schoolId} settings={settings.data} />
        </>
      )}
    </section>
  );
}

function MissingList({ items }: { items: MissingFiscalItem[] }) {
  const id = useId();
  return (
    <div className="rounded-lg border border-amber-300 bg-amber-50 p-4" role="region" aria-labelledby={id}>
      <p id={id} className="flex items-center gap-2 font-medium text-amber-900">
        <AlertTriangle className="size-4 shrink-0" aria-hidden="true" /> Falta completar para emitir notas
      </p>
      <ul className="mt-2 grid list-disc gap-2 pl-6 text-sm text-amber-950" aria-label="Informações fiscais que faltam">
        {items.map((m) => (
          <li key={m.field}>
            <span className="font-medium">{m.message}</span>
            <span className="block text-amber-900">Onde corrigir: {m.where}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

const TAXES = [
  ['cofins_rate', 'COFINS (%)'],
  ['csll_rate', 'CSLL (%)'],
  ['inss_rate', 'INSS (%)'],
  ['ir_rate', 'IR (%)'],
  ['pis_rate', 'PIS (%)'],
] as const;

function InvoiceSettingsForm({ schoolId, settings }: { schoolId: string; settings: InvoiceSettings }) {
  const id = useId();
  const save = useSaveInvoiceSettings(schoolId);
  const {
    register,
    control,
    handleSubmit,
    reset,
    setValue,
    formState: { errors, isDirty },
  } = useForm<InvoiceSettingsInput>({
    resolver: zodResolver(invoiceSettingsSchema),
    defaultValues: invoiceSettingsInput(settings),
  });
  useUnsavedChanges(isDirty);
  const issueOn = useWatch({ control, name: 'issue_on' });
  return (
    <form
      noValidate
      aria-label="Configuração das notas fiscais"
      className="grid gap-5 border-t border-border pt-4"
      onSubmit={handleSubmit((v) =>
        save.mutate(toInvoiceSettingsWrite(v), { onSuccess: (saved) => reset(invoiceSettingsInput(saved)) }),
      )}
    >
      <RadioChoiceField
        control={control}
        name="issue_on"
        id={id}
        label="Quando emitir"
        options={[
          ['payment', 'Ao confirmar o pagamento'],
          ['guarantee', 'Depois da garantia'],
        ]}
      />
      {issueOn === 'guarantee' && (
        <FormField
          label="Dias de garantia"
          hint="Padrão: 7. Um reembolso dentro da garantia não precisa cancelar nota."
          error={errors.guarantee_days?.message}
        >
          <Input inputMode="numeric" autoComplete="off" className="sm:max-w-xs" {...register('guarantee_days')} />
        </FormField>
      )}
      <ServicePicker schoolId={schoolId} control={control} setValue={setValue} />
      <FormField
        label="Descrição do serviço"
        hint={
          <>
            Use{' '}
            {TEMPLATE_PLACEHOLDERS.map(([p, what], i) => (
              <span key={p}>
                {i > 0 && (i === TEMPLATE_PLACEHOLDERS.length - 1 ? ' e ' : ', ')}
                <code className="rounded bg-muted px-1 font-mono">{p}</code> ({what})
              </span>
            ))}
            .
          </>
        }
        error={errors.description_template?.message}
      >
        <Textarea rows={3} {...register('description_template')} />
      </FormField>
      <FormField
        label="Observações (opcional)"
        hint="Saem na nota, abaixo da descrição."
        error={errors.observations?.message}
      >
        <Textarea rows={2} {...register('observations')} />
      </FormField>
      <fieldset className="grid gap-4">
        <legend className="mb-1 text-sm font-medium">ISS</legend>
        <div className="grid gap-4 sm:grid-cols-2 sm:items-end">
          <FormField
            label="Alíquota do ISS (%)"
            hint="Ex.: 2 ou 2,5."
            error={errors.iss_rate?.message}
            className="content-start"
          >
            <Input inputMode="decimal" autoComplete="off" {...register('iss_rate')} />
          </FormField>
          <div className="flex items-center gap-2 pb-2">
            <input id={`${id}-retain`} type="checkbox" className="size-4 accent-primary" {...register('retain_iss')} />
            <label htmlFor={`${id}-retain`} className="text-sm">
              ISS retido pelo tomador
            </label>
          </div>
        </div>
      </fieldset>
      <fieldset className="grid gap-4">
        <legend className="mb-1 text-sm font-medium">Outros impostos</legend>
        <p className="-mt-2 text-xs text-muted-foreground">
          Vazio ou 0: não retido. Percentuais sobre o valor da nota, como o Asaas os envia à prefeitura.
        </p>
        <div className="grid grid-cols-2 gap-4 sm:grid-cols-5">
          {TAXES.map(([name, label]) => (
            <FormField key={name} label={label} error={errors[name]?.message} className="content-start">
              <Input inputMode="decimal" autoComplete="off" {...register(name)} />
            </FormField>
          ))}
        </div>
      </fieldset>
      <Button type="submit" className="w-fit" disabled={save.isPending}>
        {save.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
        Salvar
      </Button>
    </form>
  );
}

import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { useUnsavedChanges } from '@/components/ui/unsaved-changes';
import { LoadError } from '@/components/ui/load-error';
import { formatDate } from '@/utils/format';
import { useSaveSystemKey, useSystemKey } from '../api/hooks';
import { systemKeySchema, type SystemKeyValues } from '../schemas';

/** The platform's own Asaas key (system_config ASAAS_API_KEY), for the master user only. */
export function SystemKeyCard() {
  const id = useId();
  const current = useSystemKey();
  const save = useSaveSystemKey();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = useForm<SystemKeyValues>({ resolver: zodResolver(systemKeySchema), defaultValues: { value: '' } });
  useUnsavedChanges(isDirty);
  return (
    <section className="grid gap-4 rounded-xl border border-border bg-white p-4 sm:p-6" aria-labelledby={`${id}-title`}>
      <div>
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          Chave do sistema
        </h2>
        {current.isError ? (
          <LoadError title="Não foi possível carregar a chave do sistema" onRetry={current.refetch} />
        ) : (
          <p className="text-sm text-muted-foreground">
            {current.data ? (
              <>
                Chave atual <span className="font-mono">••••{current.data.value_last4}</span>, atualizada em {formatDate(current.data.updated_at)}.
              </>
            ) : (
              current.isSuccess && 'Nenhuma chave cadastrada.'
            )}
          </p>
        )}
      </div>
      <form
        noValidate
        aria-label="Chave do sistema"
        className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-start"
        onSubmit={handleSubmit(({ value }) => save.mutate(value, { onSuccess: () => reset() }))}
      >
        <FormField label="Nova chave API (Asaas)" error={errors.value?.message}>
          <Input type="password" autoComplete="off" {...register('value')} />
        </FormField>
        <Button type="submit" className="sm:mt-6" disabled={save.isPending}>
          {save.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          Salvar chave
        </Button>
      </form>
    </section>
  );
}

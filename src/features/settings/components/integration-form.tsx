import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2, Plus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { useUnsavedChanges } from '@/components/ui/unsaved-changes';
import { Select } from '@/components/ui/select';
import { useAddIntegration } from '../api/hooks';
import { integrationSchema, type IntegrationValues } from '../schemas';

/** Adds a payment integration; after a success the key and token fields are emptied, the choices kept. */
export function IntegrationForm({ schoolId }: { schoolId: string }) {
  const add = useAddIntegration(schoolId);
  const {
    register,
    handleSubmit,
    resetField,
    formState: { errors, dirtyFields },
  } = useForm<IntegrationValues>({
    resolver: zodResolver(integrationSchema),
    defaultValues: { provider: 'asaas', environment: 'sandbox', api_key: '', webhook_token: '' },
  });
  // A key or token typed and not added yet (the provider and environment are only choices).
  useUnsavedChanges(!!dirtyFields.api_key || !!dirtyFields.webhook_token);
  return (
    <form
      noValidate
      aria-label="Adicionar integração"
      className="grid gap-4 rounded-lg border border-dashed border-border p-4"
      onSubmit={handleSubmit((values) =>
        add.mutate(values, {
          onSuccess: () => {
            resetField('api_key');
            resetField('webhook_token');
          },
        }),
      )}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Provedor">
          <Select {...register('provider')}>
            <option value="asaas">Asaas</option>
            <option value="stripe">Stripe</option>
          </Select>
        </FormField>
        <FormField label="Ambiente">
          <Select {...register('environment')}>
            <option value="sandbox">Sandbox (testes)</option>
            <option value="production">Produção</option>
          </Select>
        </FormField>
      </div>
      <FormField label="Chave API" error={errors.api_key?.message}>
        <Input type="password" autoComplete="off" {...register('api_key')} />
      </FormField>
      <FormField
        label="Token do webhook (asaas-access-token), opcional"
        hint="O mesmo token configurado no painel do Asaas para o webhook de pagamentos (mínimo de 32 caracteres)."
      >
        <Input type="password" autoComplete="off" {...register('webhook_token')} />
      </FormField>
      <Button type="submit" className="w-fit" disabled={add.isPending}>
        {add.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Plus aria-hidden="true" />} Adicionar integração
      </Button>
    </form>
  );
}

// "Carteira Asaas" (issue 43): where the affiliate's commissions are paid. Asaas has no look-up of another
// account's wallet, so the affiliate's own API key proves the wallet is theirs: the affiliate-wallet function
// uses it for one call and forgets it (docs/affiliates.md). A refusal is shown under the field it names.
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { formatDate } from '@/utils/format';
import { useSaveAffiliateWallet } from '../api/hooks';
import { walletErrorField, type Affiliate } from '../api/queries';
import { walletSchema, type WalletValues } from '../schemas';

export function WalletCard({ userId, affiliate }: { userId: string; affiliate: Affiliate }) {
  const save = useSaveAffiliateWallet(userId);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<WalletValues>({
    resolver: zodResolver(walletSchema),
    defaultValues: { wallet_id: affiliate.wallet_id ?? '', asaas_api_key: '' },
  });
  const submit = handleSubmit(async (values) => {
    try {
      const { wallet_id } = await save.mutateAsync(values);
      reset({ wallet_id, asaas_api_key: '' });
    } catch (error) {
      const field = walletErrorField(error);
      if (field) setError(field, { message: (error as Error).message });
    }
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Carteira Asaas</CardTitle>
        <CardDescription>
          {affiliate.wallet_id
            ? `Suas comissões vão para a carteira ${affiliate.wallet_id}, confirmada em ${formatDate(affiliate.wallet_validated_at)}.`
            : 'Informe a carteira da sua conta Asaas para receber as comissões. Sem ela, suas vendas não geram comissão.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="grid gap-4 sm:grid-cols-2"
          onSubmit={(e) => void submit(e)}
          aria-label="Carteira Asaas"
          noValidate
        >
          <FormField
            label="ID da carteira (walletId)"
            error={errors.wallet_id?.message}
            hint="No Asaas: Minha Conta → Integrações."
          >
            <Input autoComplete="off" spellCheck={false} {...register('wallet_id')} />
          </FormField>
          <FormField
            label="Chave de API da sua conta Asaas"
            error={errors.asaas_api_key?.message}
            hint="Usada uma vez para confirmar que a carteira é sua; não é guardada."
          >
            <Input type="password" autoComplete="off" {...register('asaas_api_key')} />
          </FormField>
          <div className="sm:col-span-2">
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? 'Confirmando...' : 'Salvar carteira'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

import { useId, useState } from 'react';
import { KeyRound, Loader2, Plus, Trash2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { formatDate } from '@/lib/format';
import { useAddIntegration, useIntegrations, useUpdateIntegration, type Integration, type NewIntegration } from '../api/hooks';
import { AsaasWebhookUrl, WebhookTokenDialog } from './asaas-webhook-setup';

const PROVIDER_LABEL: Record<string, string> = { asaas: 'Asaas', stripe: 'Stripe' };
const ENV_LABEL: Record<string, string> = { sandbox: 'Sandbox (testes)', production: 'Produção' };

export function IntegrationsCard({ schoolId }: { schoolId: string }) {
  const id = useId();
  const list = useIntegrations(schoolId);
  const add = useAddIntegration(schoolId);
  const update = useUpdateIntegration(schoolId);
  const [form, setForm] = useState<NewIntegration>({ provider: 'asaas', environment: 'sandbox', api_key: '', webhook_token: '' });
  const [keyError, setKeyError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Integration | null>(null);
  const [tokenOf, setTokenOf] = useState<Integration | null>(null);

  return (
    <section className="grid gap-4 rounded-xl border border-border bg-white p-4 sm:p-6" aria-labelledby={`${id}-title`}>
      <div>
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          Integrações de pagamento
        </h2>
        <p className="text-sm text-muted-foreground">A chave fica guardada no servidor; aqui aparecem só os 4 últimos caracteres.</p>
      </div>
      <form
        noValidate
        aria-label="Adicionar integração"
        className="grid gap-4 rounded-lg border border-dashed border-border p-4"
        onSubmit={(e) => {
          e.preventDefault();
          if (!form.api_key.trim()) return setKeyError('Preencha a chave API');
          setKeyError(null);
          add.mutate(form, { onSuccess: () => setForm((f) => ({ ...f, api_key: '', webhook_token: '' })) });
        }}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="grid gap-2">
            <Label htmlFor={`${id}-provider`}>Provedor</Label>
            <Select id={`${id}-provider`} value={form.provider} onChange={(e) => setForm({ ...form, provider: e.target.value as NewIntegration['provider'] })}>
              <option value="asaas">Asaas</option>
              <option value="stripe">Stripe</option>
            </Select>
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-env`}>Ambiente</Label>
            <Select id={`${id}-env`} value={form.environment} onChange={(e) => setForm({ ...form, environment: e.target.value as NewIntegration['environment'] })}>
              <option value="sandbox">Sandbox (testes)</option>
              <option value="production">Produção</option>
            </Select>
          </div>
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-key`}>Chave API</Label>
          <Input
            id={`${id}-key`}
            type="password"
            autoComplete="off"
            value={form.api_key}
            aria-invalid={keyError ? true : undefined}
            aria-describedby={keyError ? `${id}-key-error` : undefined}
            onChange={(e) => setForm({ ...form, api_key: e.target.value })}
          />
          {keyError && (
            <p id={`${id}-key-error`} role="alert" className="text-sm font-medium text-destructive">
              {keyError}
            </p>
          )}
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-token`}>Token do webhook (asaas-access-token), opcional</Label>
          <Input id={`${id}-token`} type="password" autoComplete="off" value={form.webhook_token} onChange={(e) => setForm({ ...form, webhook_token: e.target.value })} />
          <p className="text-xs text-muted-foreground">O mesmo token configurado no painel do Asaas para o webhook de pagamentos (mínimo de 32 caracteres).</p>
        </div>
        <Button type="submit" className="w-fit" disabled={add.isPending}>
          {add.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Plus aria-hidden="true" />} Adicionar integração
        </Button>
      </form>
      {list.data && list.data.length > 0 ? (
        <ul className="grid gap-2" aria-label="Integrações">
          {list.data.map((i) => (
            <li key={i.id} className="flex flex-wrap items-center gap-3 rounded-lg border border-border px-3 py-2">
              <div className="min-w-0 flex-1 basis-full sm:basis-0">
                <p className="font-medium">
                  {PROVIDER_LABEL[i.provider] ?? i.provider} · {ENV_LABEL[i.environment] ?? i.environment}
                </p>
                <p className="text-xs text-muted-foreground">
                  Chave <span className="font-mono">••••{i.api_key_last4}</span> · webhook {i.has_webhook_token ? 'configurado' : 'não configurado'} · desde {formatDate(i.created_at)}
                </p>
              </div>
              <Badge variant={i.is_active ? 'success' : 'secondary'}>{i.is_active ? 'Ativa' : 'Inativa'}</Badge>
              {i.provider === 'asaas' && (
                <Button variant="ghost" size="icon" onClick={() => setTokenOf(i)} aria-label={`Token do webhook da integração ${PROVIDER_LABEL[i.provider]} ${ENV_LABEL[i.environment]}`}>
                  <KeyRound aria-hidden="true" />
                </Button>
              )}
              <Switch checked={i.is_active} onCheckedChange={(on) => update.mutate({ id: i.id, is_active: on })} aria-label={`Ativar integração ${PROVIDER_LABEL[i.provider]} ${ENV_LABEL[i.environment]}`} />
              <Button variant="ghost" size="icon" className="text-destructive" onClick={() => setDeleting(i)} aria-label={`Excluir integração ${PROVIDER_LABEL[i.provider]} ${ENV_LABEL[i.environment]}`}>
                <Trash2 aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        list.data && <p className="text-sm text-muted-foreground">Nenhuma integração cadastrada.</p>
      )}
      {list.data?.some((i) => i.provider === 'asaas') && <AsaasWebhookUrl schoolId={schoolId} />}
      <WebhookTokenDialog schoolId={schoolId} integration={tokenOf} onClose={() => setTokenOf(null)} />
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Excluir integração?"
        description="A chave será apagada do servidor e os pagamentos por esta integração deixarão de funcionar."
        confirmLabel="Excluir"
        pending={update.isPending}
        onConfirm={() => deleting && update.mutate({ id: deleting.id, delete: true }, { onSettled: () => setDeleting(null) })}
      />
    </section>
  );
}

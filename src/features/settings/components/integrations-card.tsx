import { useId, useState } from 'react';
import { KeyRound, Trash2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LoadError } from '@/components/ui/load-error';
import { Switch } from '@/components/ui/switch';
import { formatDate } from '@/utils/format';
import { useDeleteIntegration, useIntegrations, useSetIntegrationActive, type Integration } from '../api/hooks';
import { AsaasWebhookUrl, WebhookTokenDialog } from './asaas-webhook-setup';
import { IntegrationForm } from './integration-form';

const PROVIDER_LABEL: Record<string, string> = { asaas: 'Asaas', stripe: 'Stripe' };
const ENV_LABEL: Record<string, string> = { sandbox: 'Sandbox (testes)', production: 'Produção' };

export function IntegrationsCard({ schoolId }: { schoolId: string }) {
  const id = useId();
  const list = useIntegrations(schoolId);
  const setActive = useSetIntegrationActive(schoolId);
  const remove = useDeleteIntegration(schoolId);
  const [deleting, setDeleting] = useState<Integration | null>(null);
  const [tokenOf, setTokenOf] = useState<Integration | null>(null);

  let body;
  if (list.isError) body = <LoadError title="Não foi possível carregar as integrações" onRetry={list.refetch} />;
  else if (list.data?.length === 0) body = <p className="text-sm text-muted-foreground">Nenhuma integração cadastrada.</p>;
  else if (list.data)
    body = (
      <ul className="grid gap-2" aria-label="Integrações">
        {list.data.map((i) => {
          const name = `${PROVIDER_LABEL[i.provider] ?? i.provider} ${ENV_LABEL[i.environment] ?? i.environment}`;
          return (
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
                <Button variant="ghost" size="icon" onClick={() => setTokenOf(i)} aria-label={`Token do webhook da integração ${name}`}>
                  <KeyRound aria-hidden="true" />
                </Button>
              )}
              <Switch checked={i.is_active} onCheckedChange={(on) => setActive.mutate({ id: i.id, isActive: on })} aria-label={`Ativar integração ${name}`} />
              <Button variant="ghost" size="icon" className="text-destructive" onClick={() => setDeleting(i)} aria-label={`Excluir integração ${name}`}>
                <Trash2 aria-hidden="true" />
              </Button>
            </li>
          );
        })}
      </ul>
    );

  return (
    <section className="grid gap-4 rounded-xl border border-border bg-white p-4 sm:p-6" aria-labelledby={`${id}-title`}>
      <div>
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          Integrações de pagamento
        </h2>
        <p className="text-sm text-muted-foreground">A chave fica guardada no servidor; aqui aparecem só os 4 últimos caracteres.</p>
      </div>
      <IntegrationForm schoolId={schoolId} />
      {body}
      {list.data?.some((i) => i.provider === 'asaas') && <AsaasWebhookUrl schoolId={schoolId} />}
      <WebhookTokenDialog schoolId={schoolId} integration={tokenOf} onClose={() => setTokenOf(null)} />
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Excluir integração?"
        description="A chave será apagada do servidor e os pagamentos por esta integração deixarão de funcionar."
        confirmLabel="Excluir"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
      />
    </section>
  );
}

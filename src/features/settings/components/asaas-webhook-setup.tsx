// What a school pastes into the Asaas panel (Integrações > Webhooks) so payments unlock courses: the
// URL of our asaas-webhook with the school's id, and the token Asaas will send as asaas-access-token,
// which must equal the one saved on the integration here.
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Copy } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { SUPABASE_URL } from '@/platform/api-config';
import { useSetWebhookToken, type Integration } from '../api/hooks';
import { copyText } from '@/platform/clipboard';
import { webhookTokenSchema, type WebhookTokenInput, type WebhookTokenValues } from '../schemas';

export function AsaasWebhookUrl({ schoolId }: { schoolId: string }) {
  const id = useId();
  const url = `${SUPABASE_URL}/functions/v1/asaas-webhook?school=${schoolId}`;
  return (
    <div className="grid gap-2 rounded-lg bg-muted/60 p-3">
      <p id={id} className="text-sm font-medium">
        URL do webhook de pagamentos (cadastre no painel do Asaas)
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <code aria-labelledby={id} className="min-w-0 flex-1 basis-full rounded-md border border-border bg-white px-3 py-2 font-mono text-xs break-all sm:basis-0">
          {url}
        </code>
        <Button
          variant="outline"
          size="sm"
          onClick={() => void copyText(url, 'URL copiada!')}
        >
          <Copy aria-hidden="true" /> Copiar URL
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">No Asaas, ative os eventos de cobrança e use como token de autenticação o mesmo token salvo na integração acima.</p>
    </div>
  );
}

/** Sets, replaces or (left empty) removes the webhook token of an existing integration. */
export function WebhookTokenDialog({ schoolId, integration, onClose }: { schoolId: string; integration: Integration | null; onClose: () => void }) {
  return (
    <Dialog open={!!integration} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Token do webhook do Asaas</DialogTitle>
          <DialogDescription>
            {integration?.has_webhook_token ? 'Um token já está salvo. Digite um novo para substituí-lo, ou deixe vazio para removê-lo.' : 'Digite o token de autenticação configurado no webhook do Asaas.'}
          </DialogDescription>
        </DialogHeader>
        {/* Keyed by integration: each opening starts from an empty field. */}
        {integration && <TokenForm key={integration.id} schoolId={schoolId} integrationId={integration.id} onClose={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function TokenForm({ schoolId, integrationId, onClose }: { schoolId: string; integrationId: string; onClose: () => void }) {
  const save = useSetWebhookToken(schoolId, integrationId);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<WebhookTokenInput, unknown, WebhookTokenValues>({ resolver: zodResolver(webhookTokenSchema), defaultValues: { token: '' } });
  return (
    <form noValidate className="grid gap-4" onSubmit={handleSubmit(({ token }) => save.mutate(token, { onSuccess: onClose }))}>
      <FormField label="Token (asaas-access-token)" error={errors.token?.message}>
        <Input type="password" autoComplete="off" {...register('token')} />
      </FormField>
      <FormDialogFooter onCancel={onClose} pending={save.isPending} submitLabel="Salvar token" />
    </form>
  );
}

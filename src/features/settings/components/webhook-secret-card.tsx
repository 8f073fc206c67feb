import { useId, useState } from 'react';
import { Copy, Eye, EyeOff, RefreshCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LoadError } from '@/components/ui/load-error';
import { useRotateWebhookSecret, useWebhookSecret } from '../api/hooks';
import { copyText } from '@/platform/clipboard';

/** The database reveals the secret only to a session that confirmed its second factor (42501 otherwise). */
const isRefusedWithoutSecondFactor = (error: unknown) => (error as { code?: string } | null)?.code === '42501';

/** The school's secret for student-webhook: masked, reveal, copy, rotate (issue 11). */
export function WebhookSecretCard({ schoolId }: { schoolId: string }) {
  const id = useId();
  const [shown, setShown] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const secret = useWebhookSecret(schoolId);
  const rotate = useRotateWebhookSecret(schoolId);
  const value = secret.data ?? '';
  const masked = value ? `${'•'.repeat(12)}${value.slice(-4)}` : '—';

  return (
    <section className="grid gap-4 rounded-xl border border-border bg-white p-4 sm:p-6" aria-labelledby={`${id}-title`}>
      <div>
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          Segredo do webhook de alunos
        </h2>
        <p className="text-sm text-muted-foreground">Envie-o no cabeçalho x-webhook-secret das chamadas ao webhook de alunos. Ele só vale para esta escola.</p>
      </div>
      {secret.isError &&
        (isRefusedWithoutSecondFactor(secret.error) ? (
          <p role="alert" className="text-sm font-medium text-destructive">
            Segredo oculto: confirme a verificação em duas etapas (código do aplicativo autenticador) para vê-lo.
          </p>
        ) : (
          <LoadError title="Não foi possível carregar o segredo" onRetry={secret.refetch} />
        ))}
      <div className="flex flex-wrap items-center gap-2">
        <code className="min-w-0 flex-1 basis-full rounded-lg border border-border bg-muted px-3 py-2 font-mono text-sm break-all sm:basis-0" aria-label="Segredo do webhook">
          {shown ? value : masked}
        </code>
        <Button variant="outline" size="sm" onClick={() => setShown((s) => !s)} disabled={!value}>
          {shown ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />} {shown ? 'Ocultar' : 'Mostrar'}
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={!value}
          onClick={() => void copyText(value, 'Segredo copiado!')}
        >
          <Copy aria-hidden="true" /> Copiar
        </Button>
        <Button variant="outline" size="sm" onClick={() => setConfirming(true)}>
          <RefreshCw aria-hidden="true" /> Gerar novo
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Gerar um novo segredo?"
        description="O segredo atual deixa de funcionar na hora: os sistemas que chamam o webhook precisarão do novo."
        confirmLabel="Gerar novo"
        pending={rotate.isPending}
        onConfirm={() => rotate.mutate(undefined, { onSettled: () => setConfirming(false) })}
      />
    </section>
  );
}

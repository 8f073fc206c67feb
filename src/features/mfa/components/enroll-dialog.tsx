import { useId } from 'react';
import { Copy } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { useConfirmEnrollment } from '../api/hooks';
import type { TotpEnrollment } from '../api/queries';
import { CodeForm } from './code-form';
import { copyText } from '@/platform/clipboard';

export interface EnrollDialogProps {
  userId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** null while the secret is being created. */
  enrollment: TotpEnrollment | null;
  onEnabled?: () => void;
}

/** "Ativar": the QR code and the secret for the app, then the first code to confirm it. */
export function EnrollDialog({ userId, open, onOpenChange, enrollment, onEnabled }: EnrollDialogProps) {
  const id = useId();
  const confirm = useConfirmEnrollment(userId);
  const copy = (secret: string) => void copyText(secret, 'Chave copiada!');
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle className="pr-6">Ativar verificação em duas etapas</DialogTitle>
          <DialogDescription>
            Leia o QR code com o aplicativo autenticador do celular (Google Authenticator, Microsoft Authenticator, 1Password…) e digite o código que ele mostrar.
          </DialogDescription>
        </DialogHeader>
        {!enrollment ? (
          <div className="flex justify-center py-10">
            <Spinner className="size-8" label="Gerando o QR code..." />
          </div>
        ) : (
          <div className="grid gap-4">
            <img
              src={enrollment.qrCode}
              alt="QR code para o aplicativo autenticador"
              width={192}
              height={192}
              className="mx-auto size-48 rounded-lg border border-border bg-white p-2"
            />
            <div className="grid gap-2">
              <p id={`${id}-secret-label`} className="text-sm font-medium">
                Não consegue ler o QR code? Digite esta chave no aplicativo:
              </p>
              <div className="flex items-center gap-2">
                <code aria-labelledby={`${id}-secret-label`} className="min-w-0 flex-1 rounded-lg border border-border bg-muted px-3 py-2 font-mono text-sm break-all" data-testid="totp-secret">
                  {enrollment.secret}
                </code>
                <Button variant="outline" size="icon" onClick={() => copy(enrollment.secret)} aria-label="Copiar chave">
                  <Copy aria-hidden="true" />
                </Button>
              </div>
            </div>
            <CodeForm
              label="Confirmar verificação em duas etapas"
              submitLabel="Confirmar"
              pendingLabel="Confirmando..."
              pending={confirm.isPending}
              onSubmit={(code) =>
                confirm.mutateAsync(
                  { factorId: enrollment.factorId, code },
                  {
                    onSuccess: () => {
                      onOpenChange(false);
                      onEnabled?.();
                    },
                  },
                )
              }
            />
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

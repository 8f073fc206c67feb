import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useDisableTwoFactor } from '../api/hooks';
import { CodeForm } from './code-form';

/** "Desativar": asks for a code of the app first (GoTrue removes a verified factor only from aal2). */
export function DisableDialog({ userId, factorId, open, onOpenChange }: { userId: string; factorId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const disable = useDisableTwoFactor(userId);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle className="pr-6">Desativar verificação em duas etapas</DialogTitle>
          <DialogDescription>Digite o código do seu aplicativo autenticador para confirmar. Depois disso, a senha volta a bastar para entrar.</DialogDescription>
        </DialogHeader>
        <CodeForm
          label="Desativar verificação em duas etapas"
          submitLabel="Desativar"
          pendingLabel="Desativando..."
          destructive
          pending={disable.isPending}
          onSubmit={(code) => disable.mutateAsync({ factorId, code }, { onSuccess: () => onOpenChange(false) })}
        />
      </DialogContent>
    </Dialog>
  );
}

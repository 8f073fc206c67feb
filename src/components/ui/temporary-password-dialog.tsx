import type { ReactNode } from 'react';
import { Copy } from 'lucide-react';
import { Button } from './button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from './dialog';
import { copyText } from '@/platform/clipboard';

/**
 * Shows a temporary password once, with a copy button; it is not shown again after closing. By default
 * it asks to send the password to `who`; `description` says something else where the person already
 * gets an e-mail (a new student: the link first, this password if the e-mail does not arrive).
 */
export function TemporaryPasswordDialog({
  title,
  who,
  password,
  description,
  passwordLabel = 'Senha temporária',
  onClose,
}: {
  title: string;
  who: string;
  password: string | null;
  description?: ReactNode;
  passwordLabel?: string;
  onClose: () => void;
}) {
  async function copy() {
    await copyText(password ?? '', 'Senha copiada!', 'Selecione a senha e copie manualmente.');
  }
  return (
    <Dialog open={!!password} onOpenChange={(o) => !o && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>
            {description ?? `Envie esta senha temporária a ${who}. Ela não será mostrada de novo; no primeiro acesso será pedida uma nova senha.`}
          </DialogDescription>
        </DialogHeader>
        <div className="flex items-center gap-2">
          <code className="min-w-0 flex-1 rounded-lg border border-border bg-muted px-3 py-2 font-mono text-base break-all" aria-label={passwordLabel}>
            {password}
          </code>
          <Button type="button" variant="outline" onClick={() => void copy()}>
            <Copy aria-hidden="true" /> Copiar
          </Button>
        </div>
        <DialogFooter>
          <Button onClick={onClose}>Concluir</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

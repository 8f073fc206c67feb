// "Ocultar comentário": staff hide a comment from students, with an optional reason only staff read.
// hand-held form: one optional textarea.
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Textarea } from '@/components/ui/textarea';

export const HIDE_REASON_MAX = 500;

export function HideDialog({ open, onOpenChange, pending, onConfirm }: { open: boolean; onOpenChange: (open: boolean) => void; pending: boolean; onConfirm: (reason: string) => void }) {
  const id = useId();
  const [reason, setReason] = useState('');
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setReason('');
        onOpenChange(next);
      }}
    >
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Ocultar comentário</DialogTitle>
          <DialogDescription>Os alunos deixam de ver este comentário e as respostas dele. A equipe continua vendo, com o motivo.</DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (!pending) onConfirm(reason.trim());
          }}
        >
          <div className="grid gap-2">
            <label htmlFor={id} className="text-sm font-medium">
              Motivo (opcional)
            </label>
            <Textarea id={id} value={reason} maxLength={HIDE_REASON_MAX} onChange={(e) => setReason(e.target.value)} placeholder="Visível apenas para a equipe" />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
              Cancelar
            </Button>
            <Button type="submit" variant="destructive" disabled={pending}>
              {pending ? 'Ocultando...' : 'Ocultar'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

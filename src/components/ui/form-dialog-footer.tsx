import { Loader2 } from 'lucide-react';
import { Button } from './button';
import { DialogFooter } from './dialog';

/** The footer of a dialog form: 'Cancelar' and the submit button, with a spinner while it saves. */
export function FormDialogFooter({ onCancel, pending, submitLabel, disabled }: { onCancel: () => void; pending: boolean; submitLabel: string; disabled?: boolean }) {
  return (
    <DialogFooter>
      <Button type="button" variant="outline" onClick={onCancel}>
        Cancelar
      </Button>
      <Button type="submit" disabled={pending || disabled}>
        {pending && <Loader2 className="animate-spin" aria-hidden="true" />}
        {submitLabel}
      </Button>
    </DialogFooter>
  );
}

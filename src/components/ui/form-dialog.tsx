// A dialog that holds one form (create or edit one thing: a coupon, a plan): Esc and × close it, never
// while it saves, and a click outside does not (what was typed stays). The fields are the children;
// 'Cancelar' and 'Salvar' close the form. `useFormDialogForm` (use-form-dialog-form.ts) wires the form.
import type { FormEventHandler, ReactNode } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from './dialog';
import { FormDialogFooter } from './form-dialog-footer';

export function FormDialog({
  title,
  description,
  pending,
  onClose,
  onSubmit,
  children,
}: {
  title: string;
  description: ReactNode;
  pending: boolean;
  onClose: () => void;
  /** react-hook-form's handleSubmit(save) of the dialog's form. */
  onSubmit: FormEventHandler<HTMLFormElement>;
  children: ReactNode;
}) {
  return (
    <Dialog open onOpenChange={(o) => !o && !pending && onClose()}>
      <DialogContent className="max-w-2xl" onInteractOutside={(e) => e.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <form noValidate aria-label={title} className="grid gap-4" onSubmit={onSubmit}>
          {children}
          <FormDialogFooter onCancel={onClose} pending={pending} submitLabel="Salvar" />
        </form>
      </DialogContent>
    </Dialog>
  );
}

// A dialog that holds one form (create or edit one thing: a coupon, a plan): Esc and × close it, never
// while it saves, and a click outside does not (what was typed stays). The form and its
// FormDialogFooter are the children.
import type { ReactNode } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from './dialog';

export function FormDialog({
  title,
  description,
  pending,
  onClose,
  children,
}: {
  title: string;
  description: ReactNode;
  pending: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog open onOpenChange={(o) => !o && !pending && onClose()}>
      <DialogContent className="max-w-2xl" onInteractOutside={(e) => e.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {children}
      </DialogContent>
    </Dialog>
  );
}

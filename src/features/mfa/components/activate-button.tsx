import { useState } from 'react';
import { ShieldCheck } from 'lucide-react';
import { Button, type ButtonProps } from '@/components/ui/button';
import { useStartEnrollment } from '../api/hooks';
import { EnrollDialog } from './enroll-dialog';

/** "Ativar": creates the secret and opens the dialog with its QR code. */
export function ActivateButton({ userId, issuer, label = 'Ativar', ...props }: { userId: string; issuer: string; label?: string } & ButtonProps) {
  const [open, setOpen] = useState(false);
  const start = useStartEnrollment();
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) start.reset();
  };
  return (
    <>
      <Button
        {...props}
        onClick={() => {
          setOpen(true);
          start.mutate(issuer, { onError: () => setOpen(false) });
        }}
      >
        <ShieldCheck aria-hidden="true" /> {label}
      </Button>
      <EnrollDialog userId={userId} open={open} onOpenChange={onOpenChange} enrollment={start.data ?? null} />
    </>
  );
}

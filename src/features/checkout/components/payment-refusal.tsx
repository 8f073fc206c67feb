// Why the payment did not go through (issue 46): Asaas's refusal of the card, or any other failure of
// the charge, beside the form's button, until the buyer acts on it: edits a field, or tries again (a
// new attempt clears the mutation's error). SPEC §8's toast still says it too, but goes in 4 s.
import { useEffect } from 'react';
import { CircleAlert } from 'lucide-react';
import { describeError } from '@/platform/errors';
import type { PaymentForm } from './payment-form';

export function PaymentRefusal({ error, form, onDismiss }: { error: Error | null; form: PaymentForm; onDismiss: () => void }) {
  useEffect(() => {
    if (!error) return;
    const subscription = form.watch((_values, { name }) => {
      if (name) onDismiss();
    });
    return () => subscription.unsubscribe();
  }, [error, form, onDismiss]);
  if (!error) return null;
  return (
    <div role="alert" data-testid="payment-refusal" className="flex items-start gap-3 rounded-lg border border-destructive/30 bg-red-50 px-3 py-3 text-sm text-red-900">
      <CircleAlert className="mt-0.5 size-5 shrink-0 text-destructive" aria-hidden="true" />
      <div className="grid gap-0.5">
        <p className="font-semibold">Pagamento não concluído</p>
        <p>{describeError(error)}</p>
      </div>
    </div>
  );
}

// A subscription's status badge and the confirmation before cancelling it, as the staff's Assinantes of a
// plan (features/plans) and the student's "Minha assinatura" (features/profile) show them; the words are
// src/concepts/subscriptions.ts'.
import { Badge } from '@/components/ui/badge';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import {
  cancelConfirmation,
  subscriptionStatus,
  type CancelTarget,
  type SubscriptionStatus,
} from '@/concepts/subscriptions';

/** "Ativa", "Em atraso", "Cancelada — acesso até dd/mm/aaaa"… */
export function SubscriptionStatusBadge({
  subscription,
}: {
  subscription: { status: SubscriptionStatus; paid_until: string | null };
}) {
  const { label, variant } = subscriptionStatus(subscription);
  return <Badge variant={variant}>{label}</Badge>;
}

/** "Cancelar assinatura?": open while `target` is set; `onConfirm` cancels it, `onClose` clears it. */
export function CancelSubscriptionDialog({
  target,
  pending,
  onClose,
  onConfirm,
}: {
  target: CancelTarget | null;
  pending: boolean;
  onClose: () => void;
  onConfirm: () => void;
}) {
  return (
    <ConfirmDialog
      open={!!target}
      onOpenChange={(o) => !o && onClose()}
      title="Cancelar assinatura?"
      description={target && cancelConfirmation(target)}
      confirmLabel="Cancelar assinatura"
      cancelLabel="Voltar"
      pending={pending}
      onConfirm={onConfirm}
    />
  );
}

// "Reembolsar": what will be refunded, an optional reason, and the confirmation. Asaas refunds the
// whole payment; the student's access pauses when Asaas's refund event arrives, not now.
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Textarea } from '@/components/ui/textarea';
import { formatDateTime, formatMoney } from '@/utils/format';
import { useRefundSale } from '../api/hooks';
import type { Sale } from '../api/queries';
import { METHOD_LABEL, itemsText } from '../lib/labels';
import { REFUND_REASON_MAX, refundSchema, type RefundValues } from '../schemas';

export function RefundDialog({ sale, onClose }: { sale: Sale; onClose: () => void }) {
  const refund = useRefundSale();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<RefundValues>({ resolver: zodResolver(refundSchema), defaultValues: { reason: '' } });
  const how = sale.billing_type === 'CREDIT_CARD' ? 'como estorno no cartão' : `por ${METHOD_LABEL[sale.billing_type] ?? sale.billing_type}`;
  return (
    <Dialog open onOpenChange={(open) => !open && !refund.isPending && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Reembolsar venda?</DialogTitle>
          <DialogDescription>
            O Asaas devolve {formatMoney(sale.value)} a {sale.buyer_name || 'quem comprou'} {how}. O acesso aos cursos desta venda é pausado quando o Asaas confirmar o
            reembolso. Não dá para desfazer.
          </DialogDescription>
        </DialogHeader>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-lg bg-muted/50 p-3 text-sm">
          <dt className="text-muted-foreground">Itens</dt>
          <dd>{itemsText(sale)}</dd>
          <dt className="text-muted-foreground">Data</dt>
          <dd>{formatDateTime(sale.created_at)}</dd>
          <dt className="text-muted-foreground">Valor</dt>
          <dd className="font-medium tabular-nums">{formatMoney(sale.value)}</dd>
        </dl>
        <form
          noValidate
          aria-label="Reembolsar venda"
          className="grid gap-4"
          onSubmit={handleSubmit(({ reason }) => refund.mutate({ paymentId: sale.id, reason }, { onSuccess: onClose }))}
        >
          <FormField label="Motivo" hint={`Opcional. Fica registrado na venda e vai para o Asaas (até ${REFUND_REASON_MAX} caracteres).`} error={errors.reason?.message}>
            <Textarea rows={3} maxLength={REFUND_REASON_MAX} {...register('reason')} />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={refund.isPending}>
              Cancelar
            </Button>
            <Button type="submit" variant="destructive" disabled={refund.isPending}>
              {refund.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
              Reembolsar {formatMoney(sale.value)}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

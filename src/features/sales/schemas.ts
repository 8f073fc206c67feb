// "Reembolsar" (issue 24): the optional reason staff give, kept with the payment and sent to Asaas as
// the refund's description (refund-asaas-payment accepts at most 500 characters).
import { z } from '@/platform/zod';

export const REFUND_REASON_MAX = 500;

export const refundSchema = z.object({
  reason: z.string().max(REFUND_REASON_MAX, `O motivo deve ter no máximo ${REFUND_REASON_MAX} caracteres`),
});
export type RefundValues = z.infer<typeof refundSchema>;

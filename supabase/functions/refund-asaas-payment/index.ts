// refund-asaas-payment (issue 24, Vendas → "Reembolsar"): staff of the payment's school (or the super
// admin) refund a confirmed payment in full at Asaas (POST /payments/{id}/refund) on the integration that
// created the charge, then request_payment_refund records when it was asked and why. Access is not paused
// here: asaas-webhook pauses every course of the payment when Asaas's PAYMENT_REFUNDED arrives.
// Body { payment_id, reason? } (reason ≤ 500 characters, sent to Asaas as the refund's description).
import { asaasFailure, schoolAsaas } from '../_shared/checkout.ts';
import { HttpError, json, readJsonBody, serve } from '../_shared/http.ts';
import { requireStaff, serviceClient } from '../_shared/supabase.ts';
import { optionalString, requiredUuid } from '../_shared/validate.ts';

serve(async (req) => {
  const admin = serviceClient();
  const caller = await requireStaff(req, admin);
  // The writes for the caller: the audit log names them and this function (issue 44).
  const audited = serviceClient({ source: 'refund-asaas-payment', actorId: caller.user.id });
  const body = await readJsonBody(req);
  const paymentId = requiredUuid(body, 'payment_id', 'Pagamento');
  const reason = optionalString(body, 'reason', 'Motivo', 500);

  const { data: payment } = await admin
    .from('payments')
    .select('id, school_id, provider, integration_id, provider_payment_id, status, refund_requested_at')
    .eq('id', paymentId)
    .maybeSingle();
  if (!payment) throw new HttpError(404, 'Pagamento não encontrado', { field: 'payment_id' });
  if (!caller.isStaffOf(payment.school_id)) throw new HttpError(403, 'Você não pode reembolsar este pagamento');
  if (payment.refund_requested_at) throw new HttpError(409, 'O reembolso deste pagamento já foi pedido.');
  if ((payment.status !== 'CONFIRMED' && payment.status !== 'RECEIVED') || !payment.provider_payment_id || payment.provider !== 'asaas') {
    throw new HttpError(409, 'Só pagamentos confirmados podem ser reembolsados.');
  }

  const { integrationId, asaas } = await schoolAsaas(admin, payment.school_id);
  // The charge lives in the Asaas account that created it; another account's key would not find it.
  if (payment.integration_id && payment.integration_id !== integrationId) {
    throw new HttpError(409, 'Este pagamento foi feito por outra integração do Asaas. Reembolse pelo painel do Asaas.');
  }

  // Claimed before Asaas is called: two clicks (or two staff) at once refund once, the other is told.
  const { data: claimed, error: claimError } = await audited
    .from('payments')
    .update({ refund_requested_at: new Date().toISOString() })
    .eq('id', payment.id)
    .is('refund_requested_at', null)
    .in('status', ['CONFIRMED', 'RECEIVED'])
    .select('id');
  if (claimError) throw new Error(`payments claim: ${claimError.message}`);
  if (!claimed?.length) throw new HttpError(409, 'O reembolso deste pagamento já foi pedido.');

  let refunded;
  try {
    refunded = await asaas.refundPayment(payment.provider_payment_id, { description: reason });
  } catch (e) {
    // Nothing happened at Asaas: the payment can be refunded again.
    await audited.from('payments').update({ refund_requested_at: null }).eq('id', payment.id);
    asaasFailure(e, 'the refund');
  }

  const { data: recorded, error } = await audited.rpc('request_payment_refund', { p_payment_id: payment.id, p_reason: reason }).single<{ refund_requested_at: string }>();
  // Asaas has the refund: the event will pause access whatever happens here, so say it went through.
  if (error) console.error(`request_payment_refund failed after the refund: ${error.message}`);
  return json({ payment_id: payment.id, refund_requested_at: recorded?.refund_requested_at ?? null, asaas_status: refunded.status });
});

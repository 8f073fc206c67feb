// cancel-asaas-subscription (issue 24): the subscriber ("Minha assinatura"), staff of the subscription's
// school or the super admin cancel it. Asaas removes it first (DELETE /v3/subscriptions/{id}: no more
// invoices, its unpaid ones removed), on the integration that created it; then cancel_plan_subscription
// keeps access until the end of the paid period (CANCELLED, EXPIRED when nothing was paid) and records who.
// Body { subscription_id }; answers the subscription row.
import { AsaasError } from '../_shared/asaas.ts';
import { asaasFailure, schoolAsaas } from '../_shared/checkout.ts';
import { HttpError, json, readJsonBody, serve } from '../_shared/http.ts';
import { requireCaller, serviceClient } from '../_shared/supabase.ts';
import { requiredUuid } from '../_shared/validate.ts';

const RUNNING = ['PENDING', 'ACTIVE', 'OVERDUE'];

serve(async (req) => {
  const admin = serviceClient();
  const caller = await requireCaller(req, admin);
  const body = await readJsonBody(req);
  const id = requiredUuid(body, 'subscription_id', 'Assinatura');

  const { data: sub } = await admin
    .from('subscriptions')
    .select('id, school_id, user_id, status, provider, provider_subscription_id, integration_id')
    .eq('id', id)
    .maybeSingle();
  if (!sub) throw new HttpError(404, 'Assinatura não encontrada', { field: 'subscription_id' });
  // Staff as requireCaller counts them: a role needs the second factor when the account or school asks for it.
  if (sub.user_id !== caller.user.id && !caller.isStaffOf(sub.school_id)) throw new HttpError(403, 'Você não pode cancelar esta assinatura');
  if (!RUNNING.includes(sub.status)) throw new HttpError(409, 'Esta assinatura já foi cancelada.');

  if (sub.provider_subscription_id) {
    const { integrationId, asaas } = await schoolAsaas(admin, sub.school_id);
    // The subscription lives in the Asaas account that created it; another account's key would not find it.
    if (sub.integration_id && sub.integration_id !== integrationId) {
      throw new HttpError(409, 'Esta assinatura foi feita por outra integração do Asaas. Cancele pelo painel do Asaas.');
    }
    try {
      await asaas.deleteSubscription(sub.provider_subscription_id);
    } catch (e) {
      // Already removed at Asaas (its panel, an earlier attempt): nothing more to ask there.
      if (!(e instanceof AsaasError && e.status === 404)) asaasFailure(e, 'the cancellation');
    }
  }

  const { data: cancelled, error } = await admin.rpc('cancel_plan_subscription', { p_subscription_id: sub.id, p_by: caller.user.id }).single();
  if (!error) return json(cancelled);
  if (error.code !== '22023') throw new Error(`cancel_plan_subscription: ${error.message}`);
  // Asaas's SUBSCRIPTION_DELETED may have cancelled it in the meantime: then it is this caller's doing.
  const { data: byEvent } = await admin
    .from('subscriptions')
    .update({ cancelled_by: caller.user.id })
    .eq('id', sub.id)
    .in('status', ['CANCELLED', 'EXPIRED'])
    .is('cancelled_by', null)
    .select('*')
    .maybeSingle();
  if (!byEvent) throw new HttpError(409, error.message);
  return json(byEvent);
});

// create-asaas-subscription (issue 24): a signed-in student subscribes to a plan of their school. The
// database creates the subscription (create_plan_subscription: the plan active, of the buyer's school,
// with courses and this payment method, not already subscribed) with the plan's value and cycle, which
// this function sends to Asaas (POST /v3/subscriptions), never the client's; our subscription's id goes as
// externalReference, and Asaas's customer and subscription ids are recorded for asaas-webhook to compare
// each event with. The first invoice is due today (a card is charged at once; a boleto in 3 days).
// Body { plan_id, billing_type, customer, creditCard?, creditCardHolderInfo? }; answers
// { subscription_id, invoiceUrl }: the first invoice, where the SPA sends the buyer as for a course.
// Card data is passed through to Asaas only: never stored, never logged.
import { dueDateInBrazil } from '../_shared/asaas.ts';
import { asaasFailure, billingTypeOf, cardOf, customerOf, schoolAsaas } from '../_shared/checkout.ts';
import { clientAddress, HttpError, json, readJsonBody, serve } from '../_shared/http.ts';
import { env, requireCaller, serviceClient } from '../_shared/supabase.ts';
import { requiredUuid } from '../_shared/validate.ts';

interface SubscriptionRow {
  id: string;
  school_id: string;
  plan_name: string;
  cycle: 'MONTHLY' | 'YEARLY';
  value: number;
}

serve(async (req) => {
  const admin = serviceClient();
  const caller = await requireCaller(req, admin);
  const body = await readJsonBody(req);

  const planId = requiredUuid(body, 'plan_id', 'Plano');
  const billingType = billingTypeOf(body);
  const customer = customerOf(body);
  const card = billingType === 'CREDIT_CARD' ? cardOf(body) : null;
  // A plan is sold to students of its own school only (create_plan_subscription checks it too).
  if (!caller.schoolId) throw new HttpError(400, 'Plano não encontrado.', { field: 'plan_id' });

  const { integrationId, environment, asaas } = await schoolAsaas(admin, caller.schoolId);

  const { data: sub, error: createError } = await admin
    .rpc('create_plan_subscription', {
      p_user_id: caller.user.id,
      p_plan_id: planId,
      p_billing_type: billingType,
      p_environment: environment,
      p_integration_id: integrationId,
    })
    .single<SubscriptionRow>();
  // The database's pt-BR refusals: unknown plan, no courses, method not accepted, already subscribed.
  if (createError?.code === '22023') throw new HttpError(400, createError.message);
  if (createError || !sub) throw new Error(`create_plan_subscription: ${createError?.message}`);

  const successUrl = `${env('SITE_URL').replace(/\/+$/, '')}/profile?assinatura=retorno`;
  let created;
  try {
    const asaasCustomer = await asaas.findOrCreateCustomer(customer);
    // Recorded before the subscription exists at Asaas: its first events may come before its answer.
    const { error: customerError } = await admin.from('subscriptions').update({ provider_customer_id: asaasCustomer.id }).eq('id', sub.id);
    if (customerError) throw new Error(`subscriptions update: ${customerError.message}`);
    created = await asaas.createSubscription({
      customer: asaasCustomer.id,
      billingType,
      value: Number(sub.value),
      cycle: sub.cycle,
      nextDueDate: dueDateInBrazil(billingType === 'BOLETO' ? 3 : 0),
      description: sub.plan_name,
      externalReference: sub.id,
      callback: { successUrl, autoRedirect: true },
      ...(card ? { ...card, remoteIp: clientAddress(req) } : {}),
    });
  } catch (e) {
    await admin.from('subscriptions').update({ status: 'FAILED' }).eq('id', sub.id);
    asaasFailure(e, 'the subscription');
  }

  const { error: recordError } = await admin.from('subscriptions').update({ provider_subscription_id: created.id }).eq('id', sub.id);
  if (recordError) console.error(`subscriptions update after Asaas created ${created.id}: ${recordError.message}`);

  // The first invoice, to pay (PIX, boleto) or to see paid (a card). The subscription exists at Asaas
  // whatever happens here: without the link the buyer still finds it in their profile.
  let invoiceUrl: string | null = null;
  try {
    const invoices = await asaas.subscriptionPayments(created.id);
    const first = invoices.data.filter((p) => !p.deleted).sort((a, b) => (a.dueDate ?? '').localeCompare(b.dueDate ?? ''))[0];
    invoiceUrl = first?.invoiceUrl ?? null;
  } catch (e) {
    console.error(`asaas subscription payments for ${created.id}: ${(e as Error).message}`);
  }
  return json({ subscription_id: sub.id, invoiceUrl });
});

// create-asaas-charge (SPEC §7, issues 11 and 24): a signed-in student buys a course of their school,
// with a coupon and the course's order bump if they chose. The price comes from the database
// (create_checkout_payment), never from the client; the charge is created on the school's active
// Asaas integration (sandbox or production by its environment) and recorded in `payments`, whose id
// goes to Asaas as externalReference so asaas-webhook can find it, beside what asaas-webhook compares
// each event with (Asaas's customer, payment and installment ids). Answers { invoiceUrl }.
// Card data is passed through to Asaas only: never stored, never logged.
// A coupon code first goes through the database's guess limit (issue 37: 429 past 10 unknown codes a
// minute per account, 30 per school and address); a charge with a coupon replaces the buyer's older pending
// ones with that coupon, of any course, which are removed at Asaas once the new one exists.
// Afiliados e coprodução (issue 43, docs/affiliates.md): the charge carries Asaas's `split` with the shares the
// database computed for this payment (checkout_commissions: the attributed affiliate's and the co-producers'),
// as fixed values (totalFixedValue for an installment plan); the split ids Asaas answers are recorded.
import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.109.0';
import type { AsaasClient } from '../_shared/asaas.ts';
import { asaasFailure, billingTypeOf, cardOf, customerOf, schoolAsaas } from '../_shared/checkout.ts';
import { clientAddress, HttpError, json, readJsonBody, serve } from '../_shared/http.ts';
import { env, requireCaller, serviceClient } from '../_shared/supabase.ts';
import { requiredUuid } from '../_shared/validate.ts';

/** The coupon code as typed (the database matches it ignoring case), or null when none. */
function optionalCode(v: unknown): string | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string' || v.trim().length > 40) throw new HttpError(400, 'Cupom não encontrado.', { field: 'coupon_code' });
  return v.trim() || null;
}

/** The database's pt-BR refusals of a checkout: the coupon's (that field), or the bump offer's. */
function refusal(error: { code?: string; message: string }, couponCode: string | null): HttpError | null {
  if (error.code === 'PT429') return new HttpError(429, error.message, { field: 'coupon_code' });
  if (error.code === '22023') return new HttpError(400, error.message, couponCode && /cupom/i.test(error.message) ? { field: 'coupon_code' } : undefined);
  // A changed price, or (issue 40) a turma that filled up or closed since the page was loaded.
  if (error.code === 'PT409') return new HttpError(409, error.message, { field: /turma/i.test(error.message) ? 'turma' : 'value' });
  return null;
}

/**
 * Removes at Asaas the pending charges this checkout replaced (create_checkout_payment released their coupon
 * reservation), so the buyer cannot pay them at the discount any more. One Asaas will not remove (paid in the
 * meantime) stays as it is: its use counts when its payment arrives. Never fails the new charge.
 */
async function removeReplacedCharges(admin: SupabaseClient, asaas: AsaasClient, paymentId: string): Promise<void> {
  const { data: replaced, error } = await admin
    .from('payments')
    .select('id, provider_payment_id')
    .eq('replaced_by', paymentId)
    .eq('status', 'PENDING')
    .not('provider_payment_id', 'is', null)
    // An installment plan (a card) is confirmed or refused at once; a pending one is left to Asaas.
    .is('provider_installment_id', null);
  if (error) return console.error(`replaced charges not read: ${error.message}`);
  for (const old of replaced ?? []) {
    try {
      await asaas.deletePayment(old.provider_payment_id as string);
      await admin.from('payments').update({ status: 'DELETED' }).eq('id', old.id).eq('status', 'PENDING');
    } catch (e) {
      console.error(`replaced charge ${old.id} not removed at Asaas: ${(e as Error).message}`);
    }
  }
}

serve(async (req) => {
  const admin = serviceClient();
  const caller = await requireCaller(req, admin);
  const body = await readJsonBody(req);

  const courseId = requiredUuid(body, 'course_id', 'Curso');
  const billingType = billingTypeOf(body);
  const customer = customerOf(body);
  const card = billingType === 'CREDIT_CARD' ? cardOf(body) : null;

  const couponCode = optionalCode(body.coupon_code);
  const withBump = body.with_bump === true;

  const { data: course } = await admin
    .from('courses')
    .select('id, school_id, title, price, max_installments, status')
    .eq('id', courseId)
    .maybeSingle();
  // Only published courses of the buyer's own school are for sale.
  if (!course || course.status !== 'PUBLISHED' || course.school_id !== caller.schoolId) {
    throw new HttpError(404, 'Curso não encontrado', { field: 'course_id' });
  }
  if (!(Number(course.price) > 0)) throw new HttpError(400, 'Este curso não está à venda', { field: 'course_id' });
  const installments = card ? Math.trunc(Number(body.installment_count ?? 1)) : 1;
  if (!(installments >= 1 && installments <= course.max_installments)) {
    throw new HttpError(400, `Parcelamento em até ${course.max_installments}x`, { field: 'installment_count' });
  }

  const { data: enrollment } = await admin
    .from('enrollments')
    .select('status, expires_at')
    .eq('user_id', caller.user.id)
    .eq('course_id', courseId)
    .maybeSingle();
  if (enrollment?.status === 'ACTIVE' && (!enrollment.expires_at || new Date(enrollment.expires_at) > new Date())) {
    throw new HttpError(409, 'Você já está matriculado neste curso');
  }

  const { integrationId, environment, asaas } = await schoolAsaas(admin, course.school_id);

  // The code's look-up counts against the guess limit in a transaction of its own: create_checkout_payment's
  // refusal of an unknown code would roll the count back.
  if (couponCode) {
    const { error } = await admin.rpc('checkout_coupon_attempt', {
      p_user_id: caller.user.id,
      p_course_id: course.id,
      p_coupon_code: couponCode,
      p_with_bump: withBump,
      p_ip: clientAddress(req) ?? null,
    });
    if (error) throw refusal(error, couponCode) ?? new Error(`checkout_coupon_attempt: ${error.message}`);
  }

  // The database prices the checkout (course, bump, coupon) and reserves the coupon's use under its
  // lock, with the payment and its items, in one transaction: this function charges that value.
  const { data: payment, error: insertError } = await admin
    .rpc('create_checkout_payment', {
      p_user_id: caller.user.id,
      p_course_id: course.id,
      p_coupon_code: couponCode,
      p_with_bump: withBump,
      p_billing_type: billingType,
      p_installment_count: installments,
      p_environment: environment,
      p_integration_id: integrationId,
      p_expected_total: body.value === undefined ? null : Number(body.value),
    })
    .single<{ id: string; value: number; course_title: string; due_date: string }>();
  if (insertError) throw refusal(insertError, couponCode) ?? new Error(`create_checkout_payment: ${insertError.message}`);
  if (!payment) throw new Error('create_checkout_payment: no payment');
  const price = Number(payment.value);
  const { data: shares, error: sharesError } = await admin.rpc('checkout_commissions', { p_payment_id: payment.id });
  if (sharesError) {
    await admin.from('payments').update({ status: 'FAILED' }).eq('id', payment.id);
    throw new Error(`checkout_commissions: ${sharesError.message}`);
  }
  const split = ((shares ?? []) as { wallet_id: string; value: number }[]).map((s) =>
    installments > 1 ? { walletId: s.wallet_id, totalFixedValue: Number(s.value) } : { walletId: s.wallet_id, fixedValue: Number(s.value) },
  );

  const successUrl = `${env('SITE_URL').replace(/\/+$/, '')}/course/${course.id}?pagamento=retorno`;
  try {
    const asaasCustomer = await asaas.findOrCreateCustomer(customer);
    // Recorded before the charge exists: Asaas may confirm a card before we record its answer below.
    const { error: customerError } = await admin.from('payments').update({ provider_customer_id: asaasCustomer.id }).eq('id', payment.id);
    if (customerError) throw new Error(`payments update: ${customerError.message}`);
    const charge = await asaas.createPayment({
      customer: asaasCustomer.id,
      billingType,
      // The database's: a coupon's reservation lasts until this date.
      dueDate: payment.due_date,
      description: payment.course_title,
      externalReference: payment.id,
      callback: { successUrl, autoRedirect: true },
      ...(installments > 1 ? { installmentCount: installments, totalValue: price } : { value: price }),
      ...(card ?? {}),
      ...(card ? { remoteIp: clientAddress(req) } : {}),
      ...(split.length ? { split } : {}),
    });
    if (charge.split?.length) {
      const { error: splitError } = await admin.rpc('record_commission_splits', { p_payment_id: payment.id, p_splits: charge.split });
      if (splitError) console.error(`split ids not recorded: ${splitError.message}`);
    }
    await admin
      .from('payments')
      .update({
        provider_payment_id: charge.id,
        // An installment plan answers with its first installment; every installment carries this id.
        provider_installment_id: charge.installment ?? null,
        invoice_url: charge.invoiceUrl,
        status: charge.status === 'CONFIRMED' || charge.status === 'RECEIVED' ? charge.status : 'PENDING',
      })
      .eq('id', payment.id);
    await removeReplacedCharges(admin, asaas, payment.id);
    // "Pagamento pendente" (issue 22) for PIX and boleto: how to pay, by e-mail too. A card is
    // confirmed or refused now; its receipt comes from the payment's confirmation.
    if (billingType !== 'CREDIT_CARD' && charge.status !== 'CONFIRMED' && charge.status !== 'RECEIVED') {
      // The code to copy; the invoice link alone still lets the student pay when Asaas does not answer.
      const code = await asaas.paymentCode(charge).catch(() => null);
      // What was bought (the course, and its bump), so the message names each course (issue 46).
      const { data: items } = await admin.from('payment_items').select('kind, title, course_id').eq('payment_id', payment.id).order('kind', { ascending: false });
      const { error: mailError } = await admin.rpc('enqueue_email', {
        p_school_id: course.school_id,
        p_user_id: caller.user.id,
        p_to: caller.user.email ?? customer.email,
        p_kind: 'payment_pending',
        p_key: `payment:${payment.id}:pending`,
        p_payload: {
          name: customer.name,
          course_title: payment.course_title,
          course_id: course.id,
          items: items ?? [],
          amount: price,
          method: billingType,
          invoice_url: charge.invoiceUrl,
          boleto_url: charge.bankSlipUrl ?? null,
          due_date: charge.dueDate ?? null,
          ...(billingType === 'PIX' ? { pix_code: code } : { boleto_line: code }),
        },
      });
      if (mailError) console.error(`payment_pending e-mail not queued: ${mailError.message}`);
    }
    return json({ invoiceUrl: charge.invoiceUrl, payment_id: payment.id });
  } catch (e) {
    await admin.from('payments').update({ status: 'FAILED' }).eq('id', payment.id);
    asaasFailure(e, 'the charge');
  }
});

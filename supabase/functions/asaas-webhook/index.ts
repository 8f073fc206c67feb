// asaas-webhook (issue 11): Asaas tells us a payment changed. Configure it in the Asaas panel as
//   <SUPABASE_URL>/functions/v1/asaas-webhook?school=<school id>
// with the token saved on the school's integration (Settings); Asaas sends it as `asaas-access-token`.
// Without ?school the school is the one owning the payment (externalReference = our payment id).
// Only HTTP 200 counts as delivered for Asaas, so every authenticated, well-formed event answers 200
// (a repeated event too: it is applied once); 401 for a wrong token, 400 for a malformed body.
// An event acts only when it matches the charge we created (payment or installment id, customer and
// value, compared in apply_payment_event); otherwise the outcome is 'mismatch', recorded on the payment.
// A subscription's events (issue 24) — PAYMENT_* of an invoice carrying `payment.subscription`, and
// SUBSCRIPTION_* — go to apply_subscription_event, which compares them with the subscription.
// An invoice's events (issue 42: INVOICE_CREATED, _UPDATED, _SYNCHRONIZED, _AUTHORIZED,
// _PROCESSING_CANCELLATION, _CANCELED, _CANCELLATION_DENIED, _ERROR, carrying `invoice`) go to
// apply_invoice_event, after the same token check; without ?school the school is the one owning the invoice.
// A split's events (issue 43: PAYMENT_SPLIT_DONE with additionalInfo.splitId, PAYMENT_SPLIT_CANCELLED,
// PAYMENT_SPLIT_DIVERGENCE_BLOCK[_FINISHED], carrying the payment and its `split`) go to apply_split_event, which
// changes only the shares whose split ids we recorded on that payment of the token's school.
import { HttpError, json, readJsonBody, safeEqual, serve } from '../_shared/http.ts';
import { serviceClient } from '../_shared/supabase.ts';
import { isUuid } from '../_shared/validate.ts';

function str(v: unknown, max: number): string | null {
  return typeof v === 'string' && v.trim() && v.length <= max ? v.trim() : null;
}

/** payment.value as the decimal text Asaas sent (a JSON number), for a numeric parameter; null otherwise. */
function money(v: unknown): string | null {
  return typeof v === 'number' && Number.isFinite(v) && Math.abs(v) < 1e12 ? String(v) : null;
}

function object(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** A YYYY-MM-DD date as Asaas sends dueDate; null otherwise. */
function date(v: unknown): string | null {
  return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : null;
}

serve(async (req) => {
  const given = req.headers.get('asaas-access-token') ?? '';
  if (!given) throw new HttpError(401, 'Token do webhook ausente ou inválido');
  const body = await readJsonBody(req);
  const payment = object(body.payment);
  const subscription = object(body.subscription);
  const invoice = object(body.invoice);
  const isInvoiceEvent = typeof body.event === 'string' && body.event.startsWith('INVOICE_');
  const providerInvoiceId = str(invoice.id, 100);
  const providerPaymentId = str(payment.id, 100);
  const providerSubscriptionId = str(payment.subscription, 100) ?? str(subscription.id, 100);
  const externalReference = str(payment.externalReference, 200) ?? str(subscription.externalReference, 200);
  const admin = serviceClient();

  const schoolParam = new URL(req.url).searchParams.get('school');
  let schoolId: string | null = null;
  if (schoolParam) {
    if (!isUuid(schoolParam)) throw new HttpError(401, 'Token do webhook ausente ou inválido');
    schoolId = schoolParam.toLowerCase();
  } else if (isInvoiceEvent) {
    const { data } = await admin.rpc('invoice_school_id', { p_provider_invoice_id: providerInvoiceId, p_external_reference: str(invoice.externalReference, 200) });
    schoolId = (data as string | null) ?? null;
  } else {
    const { data } = await admin.rpc('payment_school_id', { p_provider: 'asaas', p_provider_payment_id: providerPaymentId, p_external_reference: externalReference });
    schoolId = (data as string | null) ?? null;
  }
  const { data: expected } = schoolId ? await admin.rpc('get_integration_webhook_token', { p_school_id: schoolId, p_provider: 'asaas' }) : { data: null };
  if (!schoolId || typeof expected !== 'string' || !safeEqual(given, expected)) {
    throw new HttpError(401, 'Token do webhook ausente ou inválido');
  }

  const eventId = str(body.id, 200);
  const event = str(body.event, 100);
  if (!eventId) throw new HttpError(400, 'Evento sem id', { field: 'id' });
  if (!event) throw new HttpError(400, 'Evento sem tipo', { field: 'event' });

  if (isInvoiceEvent) {
    const { data: outcome, error } = await admin.rpc('apply_invoice_event', {
      p_school_id: schoolId,
      p_event_id: eventId,
      p_event: event,
      p_provider_invoice_id: providerInvoiceId,
      p_external_reference: str(invoice.externalReference, 200),
      p_provider_payment_id: str(invoice.payment, 100),
      p_asaas_status: str(invoice.status, 40),
      p_status_description: str(invoice.statusDescription, 2000),
      p_number: str(invoice.number, 100),
      p_pdf_url: str(invoice.pdfUrl, 2000),
      p_xml_url: str(invoice.xmlUrl, 2000),
      p_provider_installment_id: str(invoice.installment, 100),
    });
    if (error) throw new Error(`apply_invoice_event: ${error.message}`);
    return json({ received: true, outcome });
  }

  if (event.startsWith('PAYMENT_SPLIT_')) {
    const { data: outcome, error } = await admin.rpc('apply_split_event', {
      p_school_id: schoolId,
      p_event_id: eventId,
      p_event: event,
      p_provider_payment_id: providerPaymentId,
      p_splits: Array.isArray(payment.split) ? payment.split.slice(0, 50) : null,
      p_split_id: str(object(body.additionalInfo).splitId, 100),
    });
    if (error) throw new Error(`apply_split_event: ${error.message}`);
    return json({ received: true, outcome });
  }

  if (providerSubscriptionId || event.startsWith('SUBSCRIPTION_')) {
    const { data: outcome, error } = await admin.rpc('apply_subscription_event', {
      p_school_id: schoolId,
      p_event_id: eventId,
      p_event: event,
      p_provider_subscription_id: providerSubscriptionId,
      p_provider_payment_id: providerPaymentId,
      p_value: money(payment.value),
      p_customer: str(payment.customer, 100) ?? str(subscription.customer, 100),
      p_due_date: date(payment.dueDate),
      p_billing_type: str(payment.billingType, 20),
      p_invoice_url: str(payment.invoiceUrl, 2000),
      // Our subscription's id: it finds the subscription when the event beats the write of Asaas's id.
      p_external_reference: externalReference,
    });
    if (error) throw new Error(`apply_subscription_event: ${error.message}`);
    return json({ received: true, outcome });
  }

  const { data: outcome, error } = await admin.rpc('apply_payment_event', {
    p_school_id: schoolId,
    p_provider: 'asaas',
    p_event_id: eventId,
    p_event: event,
    p_provider_payment_id: providerPaymentId,
    p_external_reference: externalReference,
    p_value: money(payment.value),
    p_customer: str(payment.customer, 100),
    p_installment: str(payment.installment, 100),
  });
  if (error) throw new Error(`apply_payment_event: ${error.message}`);
  return json({ received: true, outcome });
});

// issue-invoices (issue 42): creates, issues and cancels the schools' NFS-e at Asaas. The scheduler calls it
// every minute with the service role while something is due (20261128010001); staff and students cannot.
// Each piece of work is claimed in the database first (claim_invoice_work: a pending invoice due, or a
// refunded payment's invoice to cancel), so two runs never call Asaas twice for one invoice. A create sends
// externalReference = our invoice id; when a create's outcome was unknown (no answer, Asaas unreachable, the
// run died) its claim expires and the next run looks the invoice up by that reference before creating, so
// Asaas never holds two invoices of one payment. After the create the invoice is issued at once
// (/authorize): the date we schedule on is ours (on payment, or after the guarantee days). "Emitir novamente"
// (retry_invoice) comes back here with Asaas's id: the invoice is updated with today's setting and issued again.
// A sale refunded meanwhile is never issued: record_invoice_call answers 'cancel_requested' to the create, and
// an in-doubt create of a refunded sale is claimed as a cancel (looked up first; nothing at Asaas: not issued).
//   POST { now?: ISO date-time (the job's clock; tests pass their own), limit?: 1..100 } → { created, issued, cancelled, refused, unknown }
import { AsaasClient, AsaasError, dueDateInBrazil, type AsaasInvoice, type AsaasInvoiceFields } from '../_shared/asaas.ts';
import { schoolAsaas } from '../_shared/checkout.ts';
import { HttpError, json, readJsonBody, safeEqual, serve } from '../_shared/http.ts';
import { env, serviceClient } from '../_shared/supabase.ts';

interface Work {
  invoice_id: string;
  school_id: string;
  action: 'create' | 'cancel';
  lookup: boolean;
  provider_payment_id: string | null;
  provider_installment_id: string | null;
  provider_invoice_id: string | null;
  value: number;
  service_description: string | null;
  observations: string | null;
  municipal_service_id: string | null;
  municipal_service_code: string | null;
  municipal_service_name: string | null;
  taxes: AsaasInvoiceFields['taxes'] | null;
}

/** Asaas said no, with its words (nothing was done there); anything else leaves the outcome unknown. */
function refusalOf(e: unknown): string | null {
  if (e instanceof AsaasError && e.status >= 400 && e.status < 500 && e.status !== 408 && e.status !== 429) {
    return e.description ?? `O Asaas recusou a nota fiscal (HTTP ${e.status}).`;
  }
  return null;
}

function fieldsOf(w: Work): AsaasInvoiceFields {
  return {
    serviceDescription: w.service_description ?? '',
    observations: w.observations ?? '',
    value: Number(w.value),
    deductions: 0,
    effectiveDate: dueDateInBrazil(0),
    ...(w.municipal_service_id ? { municipalServiceId: w.municipal_service_id } : {}),
    ...(w.municipal_service_code ? { municipalServiceCode: w.municipal_service_code } : {}),
    municipalServiceName: w.municipal_service_name ?? '',
    taxes: w.taxes ?? { retainIss: false, iss: 0, cofins: 0, csll: 0, inss: 0, ir: 0, pis: 0 },
  };
}

serve(async (req) => {
  const token = (req.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, '');
  if (!token || !safeEqual(token, env('SUPABASE_SERVICE_ROLE_KEY'))) throw new HttpError(401, 'Não autorizado');
  const body = await readJsonBody(req);
  const now = typeof body.now === 'string' && !Number.isNaN(Date.parse(body.now)) ? new Date(body.now).toISOString() : new Date().toISOString();
  const limit = Number.isInteger(body.limit) ? Math.min(Math.max(body.limit as number, 1), 100) : 20;
  const admin = serviceClient();

  const { data, error } = await admin.rpc('claim_invoice_work', { p_now: now, p_limit: limit });
  if (error) throw new Error(`claim_invoice_work: ${error.message}`);
  const clients = new Map<string, AsaasClient | null>();
  const result = { created: 0, issued: 0, cancelled: 0, refused: 0, unknown: 0 };

  /** Records a call's outcome; answers the invoice's status, or 'cancel_requested' to a create refunded meanwhile. */
  const record = async (w: Work, args: { invoice?: AsaasInvoice; refusal?: string; absent?: boolean }): Promise<string | null> => {
    const i = args.invoice;
    const { data: answer, error: recordError } = await admin.rpc('record_invoice_call', {
      p_invoice_id: w.invoice_id,
      p_action: args.absent ? 'absent' : w.action,
      p_provider_invoice_id: i?.id ?? null,
      p_asaas_status: i?.status ?? null,
      p_status_description: i?.statusDescription ?? null,
      p_number: i?.number ?? null,
      p_pdf_url: i?.pdfUrl ?? null,
      p_xml_url: i?.xmlUrl ?? null,
      p_refusal: args.refusal ?? null,
    });
    if (recordError) console.error(`record_invoice_call ${w.invoice_id}: ${recordError.message}`);
    return (answer as string | null) ?? null;
  };
  const atAsaasByReference = async (asaas: AsaasClient, w: Work) =>
    (await asaas.invoicesByReference(w.invoice_id)).find((i) =>
      w.provider_installment_id ? i.installment === w.provider_installment_id : i.payment === w.provider_payment_id,
    );

  for (const w of (data ?? []) as Work[]) {
    if (!clients.has(w.school_id)) clients.set(w.school_id, await schoolAsaas(admin, w.school_id).then((s) => s.asaas, () => null));
    const asaas = clients.get(w.school_id);
    if (!asaas) {
      await record(w, { refusal: 'A escola não tem uma integração ativa com o Asaas.' });
      result.refused++;
      continue;
    }
    try {
      if (w.action === 'cancel') {
        let providerInvoiceId = w.provider_invoice_id;
        if (w.lookup) {
          // A create in doubt whose payment was refunded: cancel what Asaas has; nothing there, nothing was issued.
          const found = await atAsaasByReference(asaas, w);
          await record(w, found ? { invoice: found } : { absent: true });
          if (!found || found.status === 'CANCELED') continue;
          providerInvoiceId = found.id;
        }
        await record(w, { invoice: await asaas.cancelInvoice(providerInvoiceId!) });
        result.cancelled++;
        continue;
      }
      let invoice: AsaasInvoice | undefined;
      let answer: string | null;
      if (w.provider_invoice_id) {
        // "Emitir novamente": the invoice Asaas has (still in ERROR), with today's setting, issued again below.
        invoice = await asaas.updateInvoice(w.provider_invoice_id, fieldsOf(w));
        answer = await record(w, {});
      } else {
        if (w.lookup) invoice = await atAsaasByReference(asaas, w);
        if (!invoice) {
          // A card in installments: the invoice is the plan's (Asaas's `installment`), for the whole value.
          const of = w.provider_installment_id ? { installment: w.provider_installment_id } : { payment: w.provider_payment_id! };
          invoice = await asaas.createInvoice({ ...fieldsOf(w), ...of, externalReference: w.invoice_id });
          result.created++;
        }
        answer = await record(w, { invoice });
      }
      // Refunded while the create was in flight: not issued; the cancel work takes it.
      if (answer === 'cancel_requested') continue;
      if (invoice.status === 'SCHEDULED' || invoice.status === 'ERROR') {
        await record(w, { invoice: await asaas.authorizeInvoice(invoice.id) });
        result.issued++;
      }
    } catch (e) {
      const refusal = refusalOf(e);
      if (refusal) {
        await record(w, { refusal });
        result.refused++;
      } else {
        // Unknown: a create stays claimed until its lease runs out, then is looked up; a cancel is sent again.
        console.error(`invoice ${w.invoice_id} ${w.action}: ${(e as Error).message}`);
        if (w.action === 'cancel') await record(w, {});
        result.unknown++;
      }
    }
  }
  return json(result);
});

// create-asaas-charge (SPEC §7, issues 11 and 24): a signed-in student buys a course of their school,
// with a coupon and the course's order bump if they chose. The price comes from the database
// (create_checkout_payment), never from the client; the charge is created on the school's active
// Asaas integration (sandbox or production by its environment) and recorded in `payments`, whose id
// goes to Asaas as externalReference so asaas-webhook can find it, beside what asaas-webhook compares
// each event with (Asaas's customer, payment and installment ids). Answers { invoiceUrl }.
// Card data is passed through to Asaas only: never stored, never logged.
import { AsaasClient, AsaasError, asaasBaseUrl, dueDateInBrazil, type AsaasEnvironment } from '../_shared/asaas.ts';
import { HttpError, json, readJsonBody, serve } from '../_shared/http.ts';
import { env, requireCaller, serviceClient } from '../_shared/supabase.ts';
import { digits, isEmail, optionalCpf, requiredUuid } from '../_shared/validate.ts';

const BILLING_TYPES = ['PIX', 'BOLETO', 'CREDIT_CARD'] as const;
type BillingType = (typeof BILLING_TYPES)[number];

type Body = Record<string, unknown>;

/** The coupon code as typed (the database matches it ignoring case), or null when none. */
function optionalCode(v: unknown): string | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string' || v.trim().length > 40) throw new HttpError(400, 'Cupom não encontrado.', { field: 'coupon_code' });
  return v.trim() || null;
}

function objectField(body: Body, field: string): Body {
  const v = body[field];
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Body) : {};
}

/** A required text inside a nested object; `message` is the SPEC §5 message of the group. */
function text(obj: Body, field: string, path: string, message: string, max = 200): string {
  const v = obj[field];
  if (typeof v !== 'string' && typeof v !== 'number') throw new HttpError(400, message, { field: path });
  const s = String(v).trim();
  if (!s) throw new HttpError(400, message, { field: path });
  if (s.length > max) throw new HttpError(400, 'Campo muito longo', { field: path });
  return s;
}

/** CPF (11 digits, check digits verified) or CNPJ (14 digits) as digits only. */
function cpfCnpj(obj: Body, field: string, path: string): string {
  const d = digits(text(obj, field, path, 'Campos obrigatórios', 20));
  if (d.length === 14) return d;
  try {
    return digits(optionalCpf({ cpf: d }));
  } catch {
    throw new HttpError(400, 'CPF inválido', { field: path });
  }
}

function phone(obj: Body, field: string, path: string): string {
  const d = digits(text(obj, field, path, 'Campos obrigatórios', 30));
  if (d.length < 10 || d.length > 13) throw new HttpError(400, 'Telefone inválido', { field: path });
  return d;
}

function email(obj: Body, field: string, path: string): string {
  const v = text(obj, field, path, 'Campos obrigatórios', 254).toLowerCase();
  if (!isEmail(v)) throw new HttpError(400, 'E-mail inválido', { field: path });
  return v;
}

function cardData(body: Body) {
  const card = objectField(body, 'creditCard');
  const holder = objectField(body, 'creditCardHolderInfo');
  const msg = 'Dados do cartão obrigatórios';
  const creditCard = {
    holderName: text(card, 'holderName', 'creditCard.holderName', msg),
    number: digits(text(card, 'number', 'creditCard.number', msg, 30)),
    expiryMonth: text(card, 'expiryMonth', 'creditCard.expiryMonth', msg, 10),
    expiryYear: text(card, 'expiryYear', 'creditCard.expiryYear', msg, 10),
    ccv: text(card, 'ccv', 'creditCard.ccv', msg, 10),
  };
  if (creditCard.number.length < 13 || creditCard.number.length > 19) throw new HttpError(400, 'Número do cartão inválido', { field: 'creditCard.number' });
  const month = Number(creditCard.expiryMonth);
  if (!/^\d{1,2}$/.test(creditCard.expiryMonth) || month < 1 || month > 12) throw new HttpError(400, 'Mês de validade inválido', { field: 'creditCard.expiryMonth' });
  if (!/^(\d{2}|\d{4})$/.test(creditCard.expiryYear)) throw new HttpError(400, 'Ano de validade inválido', { field: 'creditCard.expiryYear' });
  if (!/^\d{3,4}$/.test(creditCard.ccv)) throw new HttpError(400, 'CVV inválido', { field: 'creditCard.ccv' });
  const creditCardHolderInfo = {
    name: text(holder, 'name', 'creditCardHolderInfo.name', msg),
    email: email(holder, 'email', 'creditCardHolderInfo.email'),
    cpfCnpj: cpfCnpj(holder, 'cpfCnpj', 'creditCardHolderInfo.cpfCnpj'),
    postalCode: digits(text(holder, 'postalCode', 'creditCardHolderInfo.postalCode', msg, 10)),
    addressNumber: text(holder, 'addressNumber', 'creditCardHolderInfo.addressNumber', msg, 20),
    phone: phone(holder, 'phone', 'creditCardHolderInfo.phone'),
  };
  if (creditCardHolderInfo.postalCode.length !== 8) throw new HttpError(400, 'CEP inválido', { field: 'creditCardHolderInfo.postalCode' });
  return { creditCard, creditCardHolderInfo };
}

serve(async (req) => {
  const admin = serviceClient();
  const caller = await requireCaller(req, admin);
  const body = await readJsonBody(req);

  const courseId = requiredUuid(body, 'course_id', 'Curso');
  const billingType = body.billing_type as BillingType;
  if (!BILLING_TYPES.includes(billingType)) throw new HttpError(400, 'Forma de pagamento inválida', { field: 'billing_type' });
  const c = objectField(body, 'customer');
  const customer = {
    name: text(c, 'name', 'customer.name', 'Campos obrigatórios'),
    email: email(c, 'email', 'customer.email'),
    cpfCnpj: cpfCnpj(c, 'cpfCnpj', 'customer.cpfCnpj'),
    phone: phone(c, 'phone', 'customer.phone'),
  };
  const card = billingType === 'CREDIT_CARD' ? cardData(body) : null;

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

  const { data: integration } = await admin.rpc('get_integration_secret', { p_school_id: course.school_id, p_provider: 'asaas' }).maybeSingle<{
    integration_id: string;
    environment: AsaasEnvironment;
    api_key: string;
  }>();
  if (!integration) throw new HttpError(503, 'Esta escola ainda não configurou pagamentos online');

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
      p_environment: integration.environment,
      p_integration_id: integration.integration_id,
      p_expected_total: body.value === undefined ? null : Number(body.value),
    })
    .single<{ id: string; value: number; course_title: string }>();
  // The database's pt-BR refusals: the coupon's (that field), or the bump offer's.
  if (insertError?.code === '22023') throw new HttpError(400, insertError.message, couponCode && /cupom/i.test(insertError.message) ? { field: 'coupon_code' } : undefined);
  if (insertError?.code === 'PT409') throw new HttpError(409, insertError.message, { field: 'value' });
  if (insertError || !payment) throw new Error(`create_checkout_payment: ${insertError?.message}`);
  const price = Number(payment.value);

  const asaas = new AsaasClient(asaasBaseUrl(integration.environment), integration.api_key);
  const successUrl = `${env('SITE_URL').replace(/\/+$/, '')}/course/${course.id}?pagamento=retorno`;
  try {
    const asaasCustomer = await asaas.findOrCreateCustomer(customer);
    // Recorded before the charge exists: Asaas may confirm a card before we record its answer below.
    const { error: customerError } = await admin.from('payments').update({ provider_customer_id: asaasCustomer.id }).eq('id', payment.id);
    if (customerError) throw new Error(`payments update: ${customerError.message}`);
    const charge = await asaas.createPayment({
      customer: asaasCustomer.id,
      billingType,
      dueDate: dueDateInBrazil(billingType === 'BOLETO' ? 3 : 1),
      description: payment.course_title,
      externalReference: payment.id,
      callback: { successUrl, autoRedirect: true },
      ...(installments > 1 ? { installmentCount: installments, totalValue: price } : { value: price }),
      ...(card ?? {}),
      ...(card ? { remoteIp: (req.headers.get('x-forwarded-for') ?? '').split(',')[0]!.trim() || undefined } : {}),
    });
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
    // "Pagamento pendente" (issue 22) for PIX and boleto: how to pay, by e-mail too. A card is
    // confirmed or refused now; its receipt comes from the payment's confirmation.
    if (billingType !== 'CREDIT_CARD' && charge.status !== 'CONFIRMED' && charge.status !== 'RECEIVED') {
      // The code to copy; the invoice link alone still lets the student pay when Asaas does not answer.
      const code = await asaas.paymentCode(charge).catch(() => null);
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
    if (e instanceof AsaasError) {
      // Asaas's own words help the payer (a refused card, an invalid CPF); the rest is ours to fix.
      console.error(`asaas refused the charge: status ${e.status} code ${e.code ?? '-'}`);
      if (e.status === 400 && e.description) throw new HttpError(400, e.description);
      throw new HttpError(502, 'Não foi possível falar com o Asaas. Tente novamente mais tarde.');
    }
    throw e;
  }
});

// Checkout reads (SPEC §7: id, title, description, thumbnail, price, max_installments by slug or id),
// the quote (issue 24: coupon and order bump, priced by the database) and the charge. The course read
// goes through RLS, so a student finds only courses they may see; the value charged is the database's
// (create-asaas-charge has public.create_checkout_payment price it again, under the coupon's lock).
import type { DbClient } from '@/platform/db';
import type { EnrollmentState } from '@/concepts/enrollment';
import { FunctionCallError, invokeFunction } from '@/platform/functions';
import { isRunning, type PlanCycle, type PlanRow, type SubscriptionStatus } from '@/concepts/subscriptions';
import type { Json, Tables } from '@/types/database';

type JsonObject = { [key: string]: Json | undefined };

export interface CheckoutCourse {
  id: string;
  slug: string;
  title: string;
  description: string | null;
  thumbnail_url: string | null;
  thumbnail_position: string;
  price: number;
  max_installments: number;
  status: string;
  purchase_url: string | null;
  enrollments: EnrollmentState[];
}

export type CourseRef = { slug: string } | { id: string };

const CHECKOUT_SELECT = 'id, slug, title, description, thumbnail_url, thumbnail_position, price, max_installments, status, purchase_url, enrollments(status, expires_at)';

/** The course to buy with the student's own enrollment in it (none, or the one to renew); null if not found. */
export async function fetchCheckoutCourse(client: DbClient, ref: CourseRef, schoolId: string, userId: string): Promise<CheckoutCourse | null> {
  const q = client.from('courses').select(CHECKOUT_SELECT).eq('school_id', schoolId).eq('enrollments.user_id', userId);
  const { data, error } = await ('slug' in ref ? q.eq('slug', ref.slug) : q.eq('id', ref.id)).maybeSingle();
  // A malformed id is "not found", as on the course page (fetchCourseDetail).
  if (error?.code === '22P02') return null;
  if (error) throw error;
  if (!data) return null;
  // enrollments.status is a check-constrained text: the generated types say string.
  return { ...data, price: Number(data.price), enrollments: data.enrollments as EnrollmentState[] };
}

/** What the buyer pays (docs/selling.md, public.checkout_quote): every price, discount and total comes
 * from the database; the page only shows them. (A type, not an interface: it is Json.) */
export type CheckoutQuote = {
  course: { id: string; title: string; price: number };
  /** The course's order bump when it is offered to this buyer, else null. */
  bump: null | { course_id: string; title: string; description: string | null; thumbnail_url: string | null; list_price: number; price: number };
  /** The bump is in the total. */
  with_bump: boolean;
  coupon: null | { code: string; kind: 'percent' | 'fixed'; amount: number; discount: number };
  /** Why the code was not applied (pt-BR), or null. */
  coupon_error: string | null;
  subtotal: number;
  discount: number;
  total: number;
  /** The turma this purchase joins (issue 40): null for a course without turmas (docs/turmas.md). */
  turmas: TurmaOffer | null;
};

/** checkout_quote's 'turmas': the open turma (the next by start with a seat), or why none is sold. */
export type TurmaOffer = {
  state: 'open' | 'sold_out' | 'closed';
  turma: null | { id: string; name: string; starts_on: string; ends_on: string | null; seats_left: number | null };
  /** Sold out, and the school takes a waiting list. */
  waitlist_enabled: boolean;
};

/** PostgREST's code for the database's guess limit of coupon codes (HTTP 429, issue 37). */
const COUPON_GUESS_LIMIT = 'PT429';

export async function fetchCheckoutQuote(client: DbClient, courseId: string, couponCode: string | null, withBump: boolean): Promise<CheckoutQuote> {
  const { data, error } = await client.rpc('checkout_quote', { p_course_id: courseId, p_coupon_code: couponCode, p_with_bump: withBump });
  // Too many unknown codes: the price without the code, and the limit's pt-BR message where a code's refusal shows.
  if (error?.code === COUPON_GUESS_LIMIT && couponCode) return { ...(await fetchCheckoutQuote(client, courseId, null, withBump)), coupon_error: error.message };
  if (error) throw error;
  // jsonb: the generated types say Json; the shape is the function's (docs/selling.md).
  const q = data as JsonObject as CheckoutQuote;
  return {
    course: { ...q.course, price: Number(q.course.price) },
    bump: q.bump && { ...q.bump, list_price: Number(q.bump.list_price), price: Number(q.bump.price) },
    with_bump: !!q.with_bump,
    coupon: q.coupon && { ...q.coupon, amount: Number(q.coupon.amount), discount: Number(q.coupon.discount) },
    coupon_error: q.coupon_error ?? null,
    subtotal: Number(q.subtotal),
    discount: Number(q.discount),
    total: Number(q.total),
    turmas: q.turmas ?? null,
  };
}

/** The student's place on a course's waiting list (turma_waitlist, their own row), or null. */
export async function fetchWaitlistEntry(client: DbClient, courseId: string, userId: string): Promise<{ id: string; created_at: string } | null> {
  const { data, error } = await client.from('turma_waitlist').select('id, created_at').eq('course_id', courseId).eq('user_id', userId).maybeSingle();
  if (error) throw error;
  return data;
}

/** "Entrar na lista de espera": the database checks every turma on sale is full and one takes a list. */
export async function joinWaitlist(client: DbClient, courseId: string): Promise<void> {
  const { error } = await client.rpc('join_turma_waitlist', { p_course_id: courseId });
  if (error) throw error;
}

/** "Sair da lista". */
export async function leaveWaitlist(client: DbClient, courseId: string, userId: string): Promise<void> {
  const { error } = await client.from('turma_waitlist').delete().eq('course_id', courseId).eq('user_id', userId);
  if (error) throw error;
}

export type BillingType = Tables<'payments'>['billing_type'];

export interface ChargeRequest {
  course_id: string;
  billing_type: BillingType;
  /** The quote's total: the function refuses (409) when the database now prices it otherwise. */
  value: number;
  /** The applied coupon's code, or null. */
  coupon_code: string | null;
  with_bump: boolean;
  customer: { name: string; email: string; cpfCnpj: string; phone: string };
  installment_count?: number;
  creditCard?: { holderName: string; number: string; expiryMonth: string; expiryYear: string; ccv: string };
  creditCardHolderInfo?: { name: string; email: string; cpfCnpj: string; postalCode: string; addressNumber: string; phone: string };
}

/** A charge was created (go pay it), or the student turned out to be enrolled already (the server's 409). */
export type ChargeResult = { invoiceUrl: string; payment_id: string; alreadyEnrolled?: undefined } | { alreadyEnrolled: string };

export async function createCharge(body: ChargeRequest): Promise<ChargeResult> {
  try {
    return await invokeFunction<{ invoiceUrl: string; payment_id: string }>('create-asaas-charge', body);
  } catch (error) {
    if (!(error instanceof FunctionCallError)) throw error;
    if (error.status === 409 && /matriculado/.test(error.message)) return { alreadyEnrolled: error.message };
    // The function's pt-BR refusal of what the student sent; anything else is ours: SPEC §8's fallback.
    throw new Error(error.status !== null && error.status < 500 ? error.message : 'Tente novamente mais tarde', { cause: error });
  }
}

export interface PendingPayment {
  id: string;
  status: string;
  billing_type: BillingType;
  invoice_url: string | null;
  created_at: string;
}

/** The student's latest charge for a course (course page: 'Aguardando confirmação do pagamento'). */
export async function fetchLatestPayment(client: DbClient, courseId: string, userId: string): Promise<PendingPayment | null> {
  const { data, error } = await client
    .from('payments')
    .select('id, status, billing_type, invoice_url, created_at')
    .eq('course_id', courseId)
    .eq('user_id', userId)
    .order('created_at', { ascending: false })
    // bounded: the latest charge only, not a list.
    .limit(1)
    .maybeSingle();
  if (error) throw error;
  return data as PendingPayment | null;
}

/** A plan on sale (issue 24, /checkout/plano/:slug): RLS shows a student the active plans of their school. */
export interface CheckoutPlan extends PlanRow {
  /** The courses it opens that the student may see (a draft course stays hidden). */
  courses: { id: string; title: string; thumbnail_url: string | null; thumbnail_position: string }[];
  /** The student's own subscription that Asaas may still charge (pending, active or overdue), or null. */
  running: { id: string; status: SubscriptionStatus } | null;
}

/** The plan by slug with its courses and the student's running subscription of it; null if not found. */
export async function fetchCheckoutPlan(client: DbClient, slug: string, schoolId: string, userId: string): Promise<CheckoutPlan | null> {
  const { data, error } = await client
    .from('plans')
    .select('id, slug, name, description, cycle, price, billing_types, is_active, plan_courses(course:courses(id, title, thumbnail_url, thumbnail_position)), subscriptions(id, status)')
    .eq('school_id', schoolId)
    .eq('slug', slug)
    .eq('subscriptions.user_id', userId)
    .maybeSingle();
  if (error) throw error;
  if (!data) return null;
  const running = data.subscriptions.find((s) => isRunning(s.status as SubscriptionStatus));
  return {
    id: data.id,
    slug: data.slug,
    name: data.name,
    description: data.description,
    cycle: data.cycle as PlanCycle,
    price: Number(data.price),
    billing_types: data.billing_types as BillingType[],
    is_active: data.is_active,
    courses: data.plan_courses.flatMap((pc) => (pc.course ? [pc.course] : [])).sort((a, b) => a.title.localeCompare(b.title, 'pt-BR')),
    running: running ? { id: running.id, status: running.status as SubscriptionStatus } : null,
  };
}

export interface SubscriptionRequest {
  plan_id: string;
  billing_type: BillingType;
  customer: ChargeRequest['customer'];
  creditCard?: ChargeRequest['creditCard'];
  creditCardHolderInfo?: ChargeRequest['creditCardHolderInfo'];
}

/** The subscription and its first invoice (null when Asaas did not list it yet: the profile has it). */
export async function createSubscription(body: SubscriptionRequest): Promise<{ subscription_id: string; invoiceUrl: string | null }> {
  try {
    return await invokeFunction<{ subscription_id: string; invoiceUrl: string | null }>('create-asaas-subscription', body);
  } catch (error) {
    if (!(error instanceof FunctionCallError)) throw error;
    // The function's pt-BR refusal (plan, method, already subscribed); anything else is ours: SPEC §8's fallback.
    throw new Error(error.status !== null && error.status < 500 ? error.message : 'Tente novamente mais tarde', { cause: error });
  }
}

// ── Checkout sessions (issue 41, docs/recovery.md "The checkout page") ─────────────────────────────

/** What resume_checkout_session gives back for the reopen link /checkout/<slug>?retomar=<session id> (a plan's:
 * /checkout/plano/<slug>?retomar=…). The abandoned session is the buyer's open one again. */
export interface ResumedCheckout {
  session_id: string;
  /** The course on sale, or null for a plan's checkout. */
  course_id: string | null;
  course_slug: string | null;
  /** The plan on sale (an assinatura: no bump, no coupon), or null for a course's checkout. */
  plan_id: string | null;
  plan_slug: string | null;
  with_bump: boolean;
  /** The buyer's recovery coupon while valid, else the code they had. */
  coupon_code: string | null;
  outcome: 'open' | 'abandoned' | 'paid' | 'closed';
  stage: 'opened' | 'pix' | 'boleto' | 'card' | 'card_refused';
  /** The method they chose last. */
  billing_type: BillingType | null;
  /** A charge still payable (null: expired, or none made; "Pagar" makes a fresh one). */
  pending_charge: null | { payment_id: string; billing_type: string; invoice_url: string; value: number };
  /** The buyer has the offer (the course, or the plan) now. */
  already_enrolled: boolean;
}

/** PostgREST's code for the function's "Link de checkout não encontrado." (another account's link, or none). */
export const RESUME_NOT_FOUND = 'P0002';

/** Reads the session of a reopen link; only its buyer gets an answer (anyone else: P0002, nothing read). */
export async function resumeCheckoutSession(client: DbClient, sessionId: string): Promise<ResumedCheckout> {
  const { data, error } = await client.rpc('resume_checkout_session', { p_session_id: sessionId });
  if (error) throw error;
  const r = data as JsonObject;
  const charge = r.pending_charge as JsonObject | null;
  return {
    session_id: String(r.session_id),
    course_id: (r.course_id as string | null) ?? null,
    course_slug: (r.course_slug as string | null) ?? null,
    plan_id: (r.plan_id as string | null) ?? null,
    plan_slug: (r.plan_slug as string | null) ?? null,
    with_bump: !!r.with_bump,
    coupon_code: (r.coupon_code as string | null) ?? null,
    outcome: r.outcome as ResumedCheckout['outcome'],
    stage: r.stage as ResumedCheckout['stage'],
    billing_type: (r.billing_type as BillingType | null) ?? null,
    pending_charge: charge && { payment_id: String(charge.payment_id), billing_type: String(charge.billing_type), invoice_url: String(charge.invoice_url), value: Number(charge.value) },
    already_enrolled: !!r.already_enrolled,
  };
}

/**
 * Records the step (opening the page, a coupon or the bump changed): the buyer's open session of the
 * course takes these choices. The quote shows any refusal, so the page ignores this call's errors.
 */
export async function openCheckoutSession(client: DbClient, { courseId, couponCode, withBump }: { courseId: string; couponCode: string | null; withBump: boolean }): Promise<void> {
  await client.rpc('open_checkout_session', { p_course_id: courseId, p_coupon_code: couponCode, p_with_bump: withBump });
}

/** Records that the buyer opened a plan's checkout (its open session; a plan has no coupon and no bump). */
export async function openPlanCheckoutSession(client: DbClient, planId: string): Promise<void> {
  await client.rpc('open_plan_checkout_session', { p_plan_id: planId });
}

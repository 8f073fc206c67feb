// Checkout reads (SPEC §7: id, title, description, thumbnail, price, max_installments by slug or id)
// and the charge. The course read goes through RLS, so a student finds only courses they may see;
// the price charged is the database's (create-asaas-charge reads it again with the service role).
import type { DbClient } from '@/lib/db';
import type { EnrollmentState } from '@/lib/enrollment';
import { FunctionCallError, invokeFunction } from '@/lib/functions';
import type { Tables } from '@/types/database';

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

export type BillingType = Tables<'payments'>['billing_type'];

export interface ChargeRequest {
  course_id: string;
  billing_type: BillingType;
  value: number;
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

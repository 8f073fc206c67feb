// Shared helpers of the issue 41 attack tests (recovery-attack-*.test.ts), as recovery.test.ts uses the harness.
import { expect } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { ANON_KEY, SERVICE_ROLE_KEY, type Backend } from '../harness.ts';
import { inbox } from '../auth-helpers.ts';
import { COURSE, SCHOOL } from '../rls/seed.ts';

export { COURSE, SCHOOL, inbox };
export const INTEGRATION = 'ee000000-0000-4000-8000-000000000001';
export const minutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();
export interface Buyer { id: string; email: string; client: SupabaseClient }

export function helpers(backend: Backend) {
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => backend.sql<T>(text, params);
  const service = () => backend.service();
  return {
    sql,
    async newBuyer(name = 'Paula Compradora', school = SCHOOL.demo): Promise<Buyer> {
      const a = await backend.signedInAccount({ prefix: 'comprador', name, school });
      return { id: a.id, email: a.email, client: a.client };
    },
    async open(buyer: Buyer, course: string = COURSE.marketing, coupon: string | null = null, bump = false): Promise<string> {
      const { data, error } = await buyer.client.rpc('open_checkout_session', { p_course_id: course, p_coupon_code: coupon, p_with_bump: bump });
      if (error) throw error;
      return data as string;
    },
    async run(at: string) {
      const { data, error } = await service().rpc('run_checkout_recovery', { p_now: at });
      if (error) throw error;
      return data as { abandoned: number; pix_expiring: number; touches: number };
    },
    async drain() {
      const res = await fetch(`${backend.url}/functions/v1/send-emails`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', apikey: ANON_KEY, Authorization: `Bearer ${SERVICE_ROLE_KEY}` },
        body: '{}',
      });
      expect(res.status).toBe(200);
      return (await res.json()) as Record<string, number>;
    },
    async charge(buyer: Buyer, course: string = COURSE.marketing, coupon: string | null = null, method = 'PIX', bump = false) {
      const { data, error } = await service()
        .rpc('create_checkout_payment', {
          p_user_id: buyer.id, p_course_id: course, p_coupon_code: coupon, p_with_bump: bump, p_billing_type: method,
          p_installment_count: 1, p_environment: 'sandbox', p_integration_id: INTEGRATION,
        })
        .single<{ id: string; value: number; due_date: string }>();
      if (error) throw error;
      return data!;
    },
    pay: (paymentId: string) => sql(`update public.payments set status = 'CONFIRMED', paid_at = now() where id = $1`, [paymentId]),
    session: async (id: string) => (await sql<Record<string, unknown>>('select * from public.checkout_sessions where id = $1', [id]))[0]!,
  };
}

// Issue 24, the demo: supabase/seed.sql gives Escola Demo the coupon BEMVINDO20, Marketing's order bump
// (Excel Essencial for R$ 97,00) and the monthly Plano Completo, so `npm start` shows them. Each must be
// what Cupons, the course form and Planos would have saved, priced by the database as any other.
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { COUPON, COURSE, PLAN, SCHOOL } from '../rls/seed.ts';

const backend = useBackend();
const service = backend.service();
const admin = backend.signedIn('adminDemo');
const aluno = backend.signedIn('aluno');
const aluna = backend.signedIn('aluna');

async function must<T>(p: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(JSON.stringify(error));
  return data;
}

describe("the demo seed's selling", () => {
  it('BEMVINDO20 takes 20% off any Escola Demo course, with no expiry and no limit, and nobody used it', async () => {
    const coupons = (await must(admin.rpc('admin_coupons', { p_school_id: SCHOOL.demo }))) as Record<string, unknown>[];
    expect(coupons).toEqual([
      expect.objectContaining({
        id: COUPON.bemvindo20,
        code: 'BEMVINDO20',
        kind: 'percent',
        valid_from: null,
        valid_until: null,
        max_uses: null,
        max_uses_per_buyer: null,
        all_courses: true,
        is_active: true,
      }),
    ]);
    expect(Number(coupons[0]!.amount)).toBe(20);
    expect([Number(coupons[0]!.uses), Number(coupons[0]!.reserved)]).toEqual([0, 0]);
    // Typed in any case, on either published course.
    expect(
      await must(
        aluno.rpc('checkout_quote', { p_course_id: COURSE.marketing, p_coupon_code: 'bemvindo20', p_with_bump: false }),
      ),
    ).toMatchObject({ coupon_error: null, subtotal: 297, discount: 59.4, total: 237.6 });
    expect(
      await must(
        aluna.rpc('checkout_quote', { p_course_id: COURSE.excel, p_coupon_code: 'BEMVINDO20', p_with_bump: false }),
      ),
    ).toMatchObject({ coupon_error: null, discount: 39.4, total: 157.6 });
  });

  it("Marketing's checkout offers Excel Essencial for R$ 97,00 to whoever is not enrolled in Excel", async () => {
    expect(await must(service.from('course_bumps').select('course_id, bump_course_id, price'))).toEqual([
      { course_id: COURSE.marketing, bump_course_id: COURSE.excel, price: 97 },
    ]);
    // aluna has no course: offered, and the coupon discounts the course on sale only.
    expect(
      await must(
        aluna.rpc('checkout_quote', { p_course_id: COURSE.marketing, p_coupon_code: 'BEMVINDO20', p_with_bump: true }),
      ),
    ).toMatchObject({
      bump: { course_id: COURSE.excel, list_price: 197, price: 97 },
      with_bump: true,
      total: 334.6,
    });
    // aluno studies Excel: not offered.
    expect(
      await must(
        aluno.rpc('checkout_quote', { p_course_id: COURSE.marketing, p_coupon_code: null, p_with_bump: false }),
      ),
    ).toMatchObject({ bump: null });
  });

  it('Plano Completo: R$ 49,90 a month for every published course, by any method; students see it, nobody subscribed', async () => {
    const [plan] = (await must(admin.rpc('admin_plans', { p_school_id: SCHOOL.demo }))) as Record<string, unknown>[];
    expect(plan).toMatchObject({
      id: PLAN.completo,
      slug: 'plano-completo',
      name: 'Plano Completo',
      cycle: 'MONTHLY',
      billing_types: ['PIX', 'BOLETO', 'CREDIT_CARD'],
      is_active: true,
    });
    expect(Number(plan!.price)).toBe(49.9);
    expect([Number(plan!.subscribers), Number(plan!.overdue)]).toEqual([0, 0]);
    const published = (await must(
      service.from('courses').select('id').eq('school_id', SCHOOL.demo).eq('status', 'PUBLISHED'),
    )) as { id: string }[];
    expect([...(plan!.course_ids as string[])].sort()).toEqual(published.map((c) => c.id).sort());
    expect(published.map((c) => c.id).sort()).toEqual([COURSE.excel, COURSE.marketing].sort());
    // What the home and the plan's checkout read as a student.
    const seen = await must(
      aluna.from('plans').select('slug, plan_courses(course_id), subscriptions(id)').eq('id', PLAN.completo),
    );
    expect(seen).toEqual([
      {
        slug: 'plano-completo',
        plan_courses: expect.arrayContaining([{ course_id: COURSE.excel }, { course_id: COURSE.marketing }]),
        subscriptions: [],
      },
    ]);
    expect(await must(service.from('subscriptions').select('id'))).toEqual([]);
  });
});

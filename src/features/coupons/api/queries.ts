// Every read and write of coupons (issue 24, docs/selling.md): the staff's Cupons screen. The list and
// its numbers come from public.admin_coupons (uses, pending reservations, revenue, discounts); the
// coupon and its courses are written over REST, which row-level security keeps to the staff's school.
import { expectRows, type DbClient } from '@/platform/db';
import type { TablesInsert } from '@/types/database';
import { couponRowFromForm, type CouponFormValues, type CouponKind } from '../schemas';

export interface AdminCoupon {
  id: string;
  code: string;
  kind: CouponKind;
  amount: number;
  valid_from: string | null;
  valid_until: string | null;
  max_uses: number | null;
  max_uses_per_buyer: number | null;
  all_courses: boolean;
  is_active: boolean;
  course_ids: string[];
  /** The turma the coupon is limited to (issue 40), or null. */
  turma_id: string | null;
  /** Confirmed payments that used it. */
  uses: number;
  /** Pending payments holding a use. */
  reserved: number;
  /** The value of the confirmed payments that used it. */
  revenue: number;
  discounts: number;
  created_at: string;
}

const count = (v: number | string | null | undefined) => (v === null || v === undefined ? null : Number(v));

/** Every coupon of the school, newest first, with its numbers (a school has tens, not thousands). */
export async function fetchCoupons(client: DbClient, schoolId: string): Promise<AdminCoupon[]> {
  // admin_coupons predates turmas: each coupon's turma is read beside it.
  const [{ data, error }, turmas] = await Promise.all([
    client.rpc('admin_coupons', { p_school_id: schoolId }),
    client.from('coupons').select('id, turma_id').eq('school_id', schoolId).not('turma_id', 'is', null),
  ]);
  if (error) throw error;
  if (turmas.error) throw turmas.error;
  const turmaOf = new Map(turmas.data.map((t) => [t.id, t.turma_id]));
  return (data ?? []).map((r) => ({
    id: r.id!,
    code: r.code!,
    kind: r.kind as CouponKind,
    amount: Number(r.amount),
    valid_from: r.valid_from,
    valid_until: r.valid_until,
    max_uses: count(r.max_uses),
    max_uses_per_buyer: count(r.max_uses_per_buyer),
    all_courses: !!r.all_courses,
    is_active: !!r.is_active,
    course_ids: r.course_ids ?? [],
    turma_id: turmaOf.get(r.id!) ?? null,
    uses: Number(r.uses ?? 0),
    reserved: Number(r.reserved ?? 0),
    revenue: Number(r.revenue ?? 0),
    discounts: Number(r.discounts ?? 0),
    created_at: r.created_at ?? '',
  }));
}

export interface SaveCouponInput {
  /** The coupon to update, with the courses it has now; none to create one. */
  coupon?: Pick<AdminCoupon, 'id' | 'course_ids'>;
  schoolId: string;
  values: CouponFormValues;
}

/**
 * Creates or updates the coupon, then its course list (coupon_courses: the courses added are inserted,
 * the ones taken out deleted). A new coupon whose courses are refused is removed again, so a failed
 * save leaves nothing behind.
 */
export async function saveCoupon(client: DbClient, { coupon, schoolId, values }: SaveCouponInput): Promise<void> {
  const row = couponRowFromForm(values);
  const wanted = row.all_courses ? [] : values.course_ids;
  if (coupon) {
    expectRows(
      await client.from('coupons').update(row).eq('id', coupon.id).select('id'),
      'Cupom não encontrado ou sem permissão para alterá-lo',
    );
    const removed = coupon.course_ids.filter((c) => !wanted.includes(c));
    const added = wanted.filter((c) => !coupon.course_ids.includes(c));
    if (removed.length) {
      const { error } = await client
        .from('coupon_courses')
        .delete()
        .eq('coupon_id', coupon.id)
        .in('course_id', removed);
      if (error) throw error;
    }
    await insertCourses(client, coupon.id, added);
    return;
  }
  const insert: TablesInsert<'coupons'> = { ...row, school_id: schoolId };
  const { data, error } = await client.from('coupons').insert(insert).select('id').single();
  if (error) throw error;
  try {
    await insertCourses(client, data.id, wanted);
  } catch (e) {
    await client.from('coupons').delete().eq('id', data.id);
    throw e;
  }
}

async function insertCourses(client: DbClient, couponId: string, courseIds: string[]): Promise<void> {
  if (!courseIds.length) return;
  const { error } = await client
    .from('coupon_courses')
    .insert(courseIds.map((course_id) => ({ coupon_id: couponId, course_id })));
  if (error) throw error;
}

/** The Ativo switch of the list. */
export async function setCouponActive(
  client: DbClient,
  { id, is_active }: { id: string; is_active: boolean },
): Promise<void> {
  expectRows(
    await client.from('coupons').update({ is_active }).eq('id', id).select('id'),
    'Cupom não encontrado ou sem permissão para alterá-lo',
  );
}

/** Deletes a coupon nobody used (the screen offers deactivating a used one instead). */
export async function deleteCoupon(client: DbClient, id: string): Promise<void> {
  expectRows(
    await client.from('coupons').delete().eq('id', id).select('id'),
    'Cupom não encontrado ou sem permissão para excluí-lo',
  );
}

// Every staff read and write of plans (issue 24, docs/selling.md "Subscriptions"): the Planos screen.
// The list and its numbers come from public.admin_plans (courses, subscribers, overdue); the plan and
// its courses are written over REST, which row-level security keeps to the staff's school; the
// subscribers of a plan are its subscriptions with the subscriber's profile (staff read their school's).
import { expectRows, pageRange, type DbClient, type Page } from '@/platform/db';
import type { BillingType, PlanCycle, PlanRow, SubscriptionStatus } from '@/concepts/subscriptions';
import type { TablesInsert } from '@/types/database';
import { planRowFromForm, type PlanFormValues } from '../schemas';

export interface AdminPlan extends PlanRow {
  course_ids: string[];
  /** The turma subscribers enter in its course (issue 40), or null. */
  turma_id: string | null;
  /** ACTIVE, or CANCELLED with access until the end of the paid period. */
  subscribers: number;
  /** OVERDUE: access paused for an unpaid invoice. */
  overdue: number;
  created_at: string;
}

/** Every plan of the school, newest first, with its numbers (a school has a handful, not thousands). */
export async function fetchAdminPlans(client: DbClient, schoolId: string): Promise<AdminPlan[]> {
  // admin_plans predates turmas: each plan's turma is read beside it.
  const [{ data, error }, turmas] = await Promise.all([
    client.rpc('admin_plans', { p_school_id: schoolId }),
    client.from('plans').select('id, turma_id').eq('school_id', schoolId).not('turma_id', 'is', null),
  ]);
  if (error) throw error;
  if (turmas.error) throw turmas.error;
  const turmaOf = new Map(turmas.data.map((t) => [t.id, t.turma_id]));
  return (data ?? []).map((r) => ({
    id: r.id!,
    slug: r.slug!,
    name: r.name!,
    description: r.description,
    cycle: r.cycle as PlanCycle,
    price: Number(r.price),
    billing_types: (r.billing_types ?? []) as BillingType[],
    is_active: !!r.is_active,
    course_ids: r.course_ids ?? [],
    turma_id: turmaOf.get(r.id!) ?? null,
    subscribers: Number(r.subscribers ?? 0),
    overdue: Number(r.overdue ?? 0),
    created_at: r.created_at ?? '',
  }));
}

export interface SavePlanInput {
  /** The plan to update, with the courses it has now; none to create one. */
  plan?: Pick<AdminPlan, 'id' | 'course_ids'>;
  schoolId: string;
  values: PlanFormValues;
}

/**
 * Creates or updates the plan, then its courses (plan_courses: the courses added are inserted, the ones
 * taken out deleted). A new plan whose courses are refused is removed again, so a failed save leaves
 * nothing behind.
 */
export async function savePlan(client: DbClient, { plan, schoolId, values }: SavePlanInput): Promise<void> {
  const row = planRowFromForm(values);
  const wanted = values.course_ids;
  if (plan) {
    expectRows(
      await client.from('plans').update(row).eq('id', plan.id).select('id'),
      'Plano não encontrado ou sem permissão para alterá-lo',
    );
    // Added first: a plan never has no courses in between.
    await insertCourses(
      client,
      plan.id,
      wanted.filter((c) => !plan.course_ids.includes(c)),
    );
    const removed = plan.course_ids.filter((c) => !wanted.includes(c));
    if (removed.length) {
      const { error } = await client.from('plan_courses').delete().eq('plan_id', plan.id).in('course_id', removed);
      if (error) throw error;
    }
    return;
  }
  const insert: TablesInsert<'plans'> = { ...row, school_id: schoolId };
  const { data, error } = await client.from('plans').insert(insert).select('id').single();
  if (error) throw error;
  try {
    await insertCourses(client, data.id, wanted);
  } catch (e) {
    await client.from('plans').delete().eq('id', data.id);
    throw e;
  }
}

async function insertCourses(client: DbClient, planId: string, courseIds: string[]): Promise<void> {
  if (!courseIds.length) return;
  const { error } = await client
    .from('plan_courses')
    .insert(courseIds.map((course_id) => ({ plan_id: planId, course_id })));
  if (error) throw error;
}

/** The Ativo switch of the list: an inactive plan leaves the home and its checkout; its subscriptions go on. */
export async function setPlanActive(
  client: DbClient,
  { id, is_active }: { id: string; is_active: boolean },
): Promise<void> {
  expectRows(
    await client.from('plans').update({ is_active }).eq('id', id).select('id'),
    'Plano não encontrado ou sem permissão para alterá-lo',
  );
}

export interface PlanSubscriber {
  id: string;
  status: SubscriptionStatus;
  billing_type: BillingType;
  value: number;
  paid_until: string | null;
  cancelled_at: string | null;
  created_at: string;
  name: string;
  email: string | null;
}

export const SUBSCRIBERS_PAGE_SIZE = 20;

/** Which subscriptions the list shows: the subscribers (every status but FAILED), or the failed attempts. */
export type SubscribersView = 'assinantes' | 'falhas';

/**
 * One page of a plan's subscriptions, newest first, with the subscriber's name and e-mail. A subscription
 * Asaas refused (FAILED: a declined card) never existed for the buyer: it is listed only under 'falhas',
 * so two declined cards before a good one leave the buyer listed once (issue 46).
 */
export async function fetchPlanSubscribers(
  client: DbClient,
  planId: string,
  page: number,
  view: SubscribersView = 'assinantes',
  pageSize = SUBSCRIBERS_PAGE_SIZE,
): Promise<Page<PlanSubscriber>> {
  const query = client
    .from('subscriptions')
    .select(
      'id, status, billing_type, value, paid_until, cancelled_at, created_at, subscriber:profiles!subscriptions_user_id_fkey(name, email)',
      { count: 'exact' },
    )
    .eq('plan_id', planId);
  const { data, error, count } = await (view === 'falhas' ? query.eq('status', 'FAILED') : query.neq('status', 'FAILED'))
    .order('created_at', { ascending: false })
    .order('id')
    .range(...pageRange(page, pageSize));
  if (error) throw error;
  return {
    total: count ?? 0,
    rows: (data ?? []).map(({ subscriber, ...s }) => ({
      ...s,
      status: s.status as SubscriptionStatus,
      billing_type: s.billing_type as BillingType,
      value: Number(s.value),
      name: subscriber?.name || '',
      email: subscriber?.email ?? null,
    })),
  };
}

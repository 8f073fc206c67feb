// The student's side of plans (issue 24): the home's "Assine e tenha acesso a …" offers. Row-level
// security shows a student the active plans of their school and their courses; the embedded
// subscriptions are the student's own, so a plan they already have is left out.
import type { DbClient } from '@/platform/db';
import type { PlanCycle } from '@/concepts/subscriptions';

export interface PlanOffer {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  cycle: PlanCycle;
  price: number;
  /** The titles of the courses it opens that the student may see, A to Z. */
  courses: string[];
}

// One collator, built on first use: localeCompare with a locale builds one per comparison, a long task
// on the home's first render on a phone (issue 38).
let titles: Intl.Collator | undefined;
const byTitle = () => (titles ??= new Intl.Collator('pt-BR'));

/** The school's active plans the student does not subscribe to, oldest first (a school has a handful). */
export async function fetchPlanOffers(client: DbClient, schoolId: string, userId: string): Promise<PlanOffer[]> {
  const { data, error } = await client
    .from('plans')
    .select(
      'id, slug, name, description, cycle, price, created_at, plan_courses(course:courses(title)), subscriptions(id)',
    )
    .eq('school_id', schoolId)
    .eq('is_active', true)
    .eq('subscriptions.user_id', userId)
    // Only a subscription Asaas may still charge keeps the plan off the home (a cancelled one may come back).
    .in('subscriptions.status', ['PENDING', 'ACTIVE', 'OVERDUE'])
    .order('created_at')
    .order('id');
  if (error) throw error;
  return (data ?? [])
    .filter((p) => p.subscriptions.length === 0)
    .map((p) => ({
      id: p.id,
      slug: p.slug,
      name: p.name,
      description: p.description,
      cycle: p.cycle as PlanCycle,
      price: Number(p.price),
      courses: p.plan_courses
        .flatMap((pc) => (pc.course ? [pc.course.title] : []))
        .sort(byTitle().compare),
    }))
    .filter((p) => p.courses.length > 0);
}

// /checkout/:courseSlug and /checkout?course=<id> (SPEC §2); ?cupom=CODIGO applies a coupon (issue 24);
// ?retomar=<session id> reopens a checkout as the buyer left it (issue 41).
// /checkout/plano/:planSlug is a plan's checkout (issue 24), in the same chunk: one more route in the
// router's table costs the first route's download, a second chunk would cost it again.
import { useParams, useSearchParams } from 'react-router-dom';
import { CheckoutPage } from '@/features/checkout/components/checkout-page';
import { PlanCheckoutPage } from '@/features/checkout/components/plan-checkout-page';

export default function CheckoutRoute() {
  const { courseSlug, planSlug } = useParams();
  const [search] = useSearchParams();
  const id = search.get('course');
  if (planSlug !== undefined) return <PlanCheckoutPage slug={planSlug} resume={search.get('retomar')} />;
  return <CheckoutPage courseRef={courseSlug ? { slug: courseSlug } : id ? { id } : null} coupon={search.get('cupom')} resume={search.get('retomar')} />;
}

// /checkout/:courseSlug and /checkout?course=<id> (SPEC §2); ?cupom=CODIGO applies a coupon (issue 24).
import { useParams, useSearchParams } from 'react-router-dom';
import { CheckoutPage } from '@/features/checkout/components/checkout-page';

export default function CheckoutRoute() {
  const { courseSlug } = useParams();
  const [search] = useSearchParams();
  const id = search.get('course');
  return <CheckoutPage courseRef={courseSlug ? { slug: courseSlug } : id ? { id } : null} coupon={search.get('cupom')} />;
}

import { PagePlaceholder } from './placeholder';

// Placeholder: the checkout issue replaces this file.
export default function CheckoutPage() {
  return <PagePlaceholder title="Checkout" />;
}

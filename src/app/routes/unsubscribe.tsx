import { UnsubscribePage } from '@/features/email-preferences/components/unsubscribe-page';

/** /descadastrar#token=…: an optional e-mail's "Descadastrar" link (issue 22), signed in or not. */
export default function UnsubscribeRoute() {
  return <UnsubscribePage />;
}

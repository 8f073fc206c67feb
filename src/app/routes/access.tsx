import { AccessLinkPage } from '@/features/auth/components/access-link-page';

/** /acesso#token=…: the "Acesso liberado" e-mail's link (issue 22), signed in or not. */
export default function AccessRoute() {
  return <AccessLinkPage />;
}

// Painel do afiliado (issue 43): features/affiliates' page for the signed-in account, from the account menu.
import { AffiliatePanelPage } from '@/features/affiliates/components/affiliate-panel-page';
import { useSession } from '@/platform/session';

export default function AffiliateRoute() {
  const { user } = useSession();
  return <AffiliatePanelPage userId={user?.id ?? ''} />;
}

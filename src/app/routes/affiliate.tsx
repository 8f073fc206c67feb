// Afiliados (issue 43): features/affiliates' pages for the signed-in account. /afiliado?curso=<id> is the
// course's affiliate page ("Quero ser afiliado"), the link a school shares; /afiliado alone is the Painel do
// afiliado, from the account menu. Kept off the course page so a student's course view asks nothing more.
import { useSearchParams } from 'react-router-dom';
import { AffiliateCard } from '@/features/affiliates/components/affiliate-card';
import { AffiliatePanelPage } from '@/features/affiliates/components/affiliate-panel-page';
import { useSession } from '@/platform/session';

export default function AffiliateRoute() {
  const { user } = useSession();
  const courseId = useSearchParams()[0].get('curso');
  if (user && courseId)
    return (
      <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6">
        <AffiliateCard courseId={courseId} userId={user.id} />
      </div>
    );
  return <AffiliatePanelPage userId={user?.id ?? ''} />;
}

import { Outlet } from 'react-router-dom';
import { AffiliateReferral } from '@/features/affiliates/components/affiliate-referral';
import { HeaderProgressProvider } from './header-progress';
import { MemberHeader } from './member-header';

/** Member area shell: the top header and the page. */
export default function MemberLayout() {
  return (
    <HeaderProgressProvider>
      <div className="flex min-h-dvh flex-col">
        <MemberHeader />
        <AffiliateReferral />
        <main id="conteudo" className="flex-1">
          <Outlet />
        </main>
      </div>
    </HeaderProgressProvider>
  );
}

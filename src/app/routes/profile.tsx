import { useSearchParams } from 'react-router-dom';
import { UnsavedChangesScope } from '@/components/ui/unsaved-changes';
import { ProfilePage } from '@/features/profile/components/profile-page';
import { MySubscriptionsCard } from '@/features/profile/components/my-subscriptions-card';
import { SubscriptionReturnNotice } from '@/features/profile/components/subscription-return-notice';
import { TwoFactorCard } from '@/features/mfa/components/two-factor-card';
import { MyPurchasesCard } from '@/features/invoices/components/my-purchases-card';
import { EmailPreferencesCard } from '@/features/email-preferences/components/email-preferences-card';
import { RankingVisibilityCard } from '@/features/ranking/components/ranking-visibility-card';
import { useSession } from '@/platform/session';

export default function ProfileRoute() {
  const { user, isAdmin, school, profile } = useSession();
  const schoolId = school?.id ?? profile?.school_id;
  // Back from subscribing (Asaas's invoice page, or the plan checkout): the word of it, where they land.
  const [search, setSearch] = useSearchParams();
  const subscribed = search.get('assinatura') === 'retorno';
  return (
    <UnsavedChangesScope>
      <ProfilePage notice={user && subscribed && <SubscriptionReturnNotice userId={user.id} onDismiss={() => setSearch({}, { replace: true })} />}>
        {/* Issue 24: the student's plans, when they have any. */}
        {user && <MySubscriptionsCard userId={user.id} />}
        {/* Issue 42: the student's purchases with their notas fiscais, when they have any. */}
        {user && <MyPurchasesCard userId={user.id} />}
        {user && <EmailPreferencesCard userId={user.id} />}
        {/* Issue 26 (LGPD): only when the school's ranking is on. */}
        {user && schoolId && <RankingVisibilityCard schoolId={schoolId} userId={user.id} />}
        {/* Staff hold payment keys and every student's data: they may (or must) add a second factor. */}
        {user && isAdmin && (
          <TwoFactorCard userId={user.id} issuer={school?.member_area_name || school?.name || 'Área de Membros'} required={school?.require_staff_mfa === true} />
        )}
      </ProfilePage>
    </UnsavedChangesScope>
  );
}

import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { UnsavedChangesScope } from '@/components/ui/unsaved-changes';
import { hasVerifiedFactor } from '@/features/mfa/assurance';
import { StaffRequirementCard } from '@/features/mfa/components/staff-requirement-card';
import { MemberAreaNameForm } from '@/features/schools/components/member-area-name-form';
import { SubscriptionGraceForm } from '@/features/schools/components/subscription-grace-form';
import { WithOwnSchool } from '@/features/schools/components/own-school';
import { DiscussionSettingsCard } from '@/features/settings/components/discussion-settings-card';
import { IntegrationsCard } from '@/features/settings/components/integrations-card';
import { SchoolEmailSettingsCard } from '@/features/email-preferences/components/school-email-settings-card';
import { SystemKeyCard } from '@/features/settings/components/system-key-card';
import { WebhookDocs } from '@/features/settings/components/webhook-docs';
import { WebhookSecretCard } from '@/features/settings/components/webhook-secret-card';
import { useSession } from '@/platform/session';

// The system key card is for the master user: a super admin, and when VITE_MASTER_USER_EMAIL is set,
// only the super admin with that e-mail (SPEC §6).
// The page's settings follow docs/conventions.md "Settings": switches save at once; each typed form
// saves with its own "Salvar" and resets to what it saved (no remount when another card saves the
// school, which would drop what was typed here), and the scope asks before leaving with it unsaved.
const MASTER_EMAIL = (import.meta.env.VITE_MASTER_USER_EMAIL as string | undefined)?.trim().toLowerCase() || null;

export default function AdminSettingsPage() {
  const { roles, user } = useSession();
  const isSuperAdmin = roles.some((r) => r.role === 'SUPER_ADMIN');
  const isMaster = isSuperAdmin && (!MASTER_EMAIL || user?.email?.toLowerCase() === MASTER_EMAIL);
  const isSchoolAdmin = (schoolId: string) => isSuperAdmin || roles.some((r) => r.role === 'SCHOOL_ADMIN' && r.school_id === schoolId);
  return (
    <WithOwnSchool>
      {(school) => (
        <UnsavedChangesScope>
          <AdminPage className="max-w-4xl">
            <PageHeader title="Configurações" description="Nome da área de membros, integrações de pagamento, e-mails, comentários e webhooks" />
            <MemberAreaNameForm school={school} />
            {isSchoolAdmin(school.id) && (
              <StaffRequirementCard schoolId={school.id} required={school.require_staff_mfa} canChange={hasVerifiedFactor(user)} />
            )}
            <IntegrationsCard schoolId={school.id} />
            <SubscriptionGraceForm school={school} />
            <SchoolEmailSettingsCard schoolId={school.id} />
            <DiscussionSettingsCard schoolId={school.id} />
            <WebhookSecretCard schoolId={school.id} />
            {isMaster && <SystemKeyCard />}
            {isSuperAdmin && <WebhookDocs />}
          </AdminPage>
        </UnsavedChangesScope>
      )}
    </WithOwnSchool>
  );
}

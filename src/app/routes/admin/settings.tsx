// Configurações (SPEC §6): eight features' cards, as the staff's powers allow (staff-powers.ts). Settings
// follow docs/conventions.md "Settings"; the scope asks before leaving a typed form unsaved.
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { UnsavedChangesScope } from '@/components/ui/unsaved-changes';
import { hasVerifiedFactor } from '@/features/mfa/assurance';
import { StaffRequirementCard } from '@/features/mfa/components/staff-requirement-card';
import { MemberAreaNameForm } from '@/features/school-settings/components/member-area-name-form';
import { SubscriptionGraceForm } from '@/features/school-settings/components/subscription-grace-form';
import { WithOwnSchool } from '@/app/own-school';
import { DiscussionSettingsCard } from '@/features/settings/components/discussion-settings-card';
import { VideoSettingsCard } from '@/features/school-settings/components/video-settings-card';
import { IntegrationsCard } from '@/features/settings/components/integrations-card';
import { SchoolEmailSettingsCard } from '@/features/email-preferences/components/school-email-settings-card';
import { RecoverySettingsCard } from '@/features/recovery/components/recovery-settings-card';
import { InvoiceSettingsCard } from '@/features/invoices/components/admin/invoice-settings-card';
import { SystemKeyCard } from '@/features/settings/components/system-key-card';
import { WebhookDocs } from '@/features/settings/components/webhook-docs';
import { WebhookSecretCard } from '@/features/settings/components/webhook-secret-card';
import { useSettingsPowers } from '@/features/settings/staff-powers';

export default function AdminSettingsPage() {
  const { user, isSuperAdmin, isMaster, isSchoolAdmin } = useSettingsPowers();
  return (
    <WithOwnSchool>
      {(school) => (
        <UnsavedChangesScope>
          <AdminPage className="max-w-4xl">
            <PageHeader title="Configurações" description="Nome da área de membros, integrações de pagamento, e-mails, comentários e webhooks" />
            <MemberAreaNameForm school={school} />
            {isSchoolAdmin(school.id) && <StaffRequirementCard schoolId={school.id} required={school.require_staff_mfa} canChange={hasVerifiedFactor(user)} />}
            <IntegrationsCard schoolId={school.id} />
            <SubscriptionGraceForm school={school} />
            <SchoolEmailSettingsCard schoolId={school.id} />
            <RecoverySettingsCard schoolId={school.id} />
            <InvoiceSettingsCard schoolId={school.id} />
            <VideoSettingsCard school={school} />
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

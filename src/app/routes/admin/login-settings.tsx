import { UnsavedChangesScope } from '@/components/ui/unsaved-changes';
import { LoginSettings } from '@/features/school-settings/components/login-settings';
import { WithOwnSchool } from '@/app/own-school';

export default function AdminLoginSettingsPage() {
  return (
    <UnsavedChangesScope>
      <WithOwnSchool>{(school) => <LoginSettings key={school.id} school={school} />}</WithOwnSchool>
    </UnsavedChangesScope>
  );
}

import { UnsavedChangesScope } from '@/components/ui/unsaved-changes';
import { LoginSettings } from '@/features/schools/components/login-settings';
import { WithOwnSchool } from '@/features/schools/components/own-school';

export default function AdminLoginSettingsPage() {
  return (
    <UnsavedChangesScope>
      <WithOwnSchool>{(school) => <LoginSettings key={school.id} school={school} />}</WithOwnSchool>
    </UnsavedChangesScope>
  );
}

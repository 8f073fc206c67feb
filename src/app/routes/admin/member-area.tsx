import { UnsavedChangesScope } from '@/components/ui/unsaved-changes';
import { MemberAreaForm } from '@/features/school-settings/components/member-area-form';
import { WithOwnSchool } from '@/app/own-school';

export default function AdminMemberAreaPage() {
  return (
    <UnsavedChangesScope>
      <WithOwnSchool>{(school) => <MemberAreaForm school={school} />}</WithOwnSchool>
    </UnsavedChangesScope>
  );
}

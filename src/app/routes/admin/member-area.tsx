import { UnsavedChangesScope } from '@/components/ui/unsaved-changes';
import { MemberAreaForm } from '@/features/schools/components/member-area-form';
import { WithOwnSchool } from '@/features/schools/components/own-school';

export default function AdminMemberAreaPage() {
  return (
    <UnsavedChangesScope>
      <WithOwnSchool>{(school) => <MemberAreaForm school={school} />}</WithOwnSchool>
    </UnsavedChangesScope>
  );
}

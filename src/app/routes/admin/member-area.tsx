import { MemberAreaForm } from '@/features/schools/components/member-area-form';
import { WithOwnSchool } from '@/features/schools/components/own-school';

export default function AdminMemberAreaPage() {
  return <WithOwnSchool>{(school) => <MemberAreaForm key={school.updated_at} school={school} />}</WithOwnSchool>;
}

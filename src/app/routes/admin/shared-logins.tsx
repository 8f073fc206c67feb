import { WithOwnSchool } from '@/app/own-school';
import { SharedLoginsPage } from '@/features/shared-logins/components/shared-logins-page';

export default function AdminSharedLoginsPage() {
  return <WithOwnSchool>{(school) => <SharedLoginsPage schoolId={school.id} />}</WithOwnSchool>;
}

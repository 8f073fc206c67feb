// Afiliados (issue 43): features/affiliates' staff page for the staff's own school.
import { AffiliatesPage } from '@/features/affiliates/components/admin/affiliates-page';
import { WithOwnSchool } from '@/app/own-school';

export default function AdminAffiliatesPage() {
  return <WithOwnSchool>{(school) => <AffiliatesPage schoolId={school.id} />}</WithOwnSchool>;
}

import { PageSpinner } from '@/components/ui/spinner';
import { useCourseOptions } from '@/features/courses/api/admin-hooks';
import { RecoveryPage } from '@/features/recovery/components/recovery-page';
import { WithOwnSchool } from '@/app/own-school';

function Recovery({ schoolId }: { schoolId: string }) {
  const courses = useCourseOptions(schoolId);
  if (courses.isPending) return <PageSpinner />;
  return <RecoveryPage schoolId={schoolId} courses={(courses.data ?? []).map((c) => ({ id: c.id, title: c.title }))} />;
}

export default function AdminRecoveryPage() {
  return <WithOwnSchool>{(school) => <Recovery schoolId={school.id} />}</WithOwnSchool>;
}

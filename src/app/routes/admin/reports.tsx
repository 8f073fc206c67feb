import { PageSpinner } from '@/components/ui/spinner';
import { useCourseOptions } from '@/features/courses/api/admin-hooks';
import { ReportsPage } from '@/features/reports/components/reports-page';
import { WithOwnSchool } from '@/app/own-school';

function Reports({ schoolId }: { schoolId: string }) {
  const courses = useCourseOptions(schoolId);
  if (courses.isPending) return <PageSpinner />;
  return <ReportsPage schoolId={schoolId} courses={(courses.data ?? []).map((c) => ({ id: c.id, title: c.title }))} />;
}

export default function AdminReportsPage() {
  return <WithOwnSchool>{(school) => <Reports schoolId={school.id} />}</WithOwnSchool>;
}

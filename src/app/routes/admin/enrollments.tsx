import { PageSpinner } from '@/components/ui/spinner';
import { useCourseOptions } from '@/features/courses/api/admin-hooks';
import { EnrollmentsPage } from '@/features/enrollments/components/enrollments-page';
import { WithOwnSchool } from '@/app/own-school';

function Enrollments({ schoolId }: { schoolId: string }) {
  const courses = useCourseOptions(schoolId);
  if (courses.isPending) return <PageSpinner />;
  return <EnrollmentsPage schoolId={schoolId} courses={(courses.data ?? []).map((c) => ({ id: c.id, title: c.title }))} />;
}

export default function AdminEnrollmentsPage() {
  return <WithOwnSchool>{(school) => <Enrollments schoolId={school.id} />}</WithOwnSchool>;
}

import { PageSpinner } from '@/components/ui/spinner';
import { useCourseOptions } from '@/features/courses/api/admin-hooks';
import { WithOwnSchool } from '@/app/own-school';
import { StudentsPage } from '@/features/students/components/students-page';

function Students({ schoolId }: { schoolId: string }) {
  const courses = useCourseOptions(schoolId);
  if (courses.isPending) return <PageSpinner />;
  return <StudentsPage schoolId={schoolId} courses={(courses.data ?? []).map((c) => ({ id: c.id, title: c.title }))} />;
}

export default function AdminStudentsPage() {
  return <WithOwnSchool>{(school) => <Students schoolId={school.id} />}</WithOwnSchool>;
}

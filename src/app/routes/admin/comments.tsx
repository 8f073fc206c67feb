import { PageSpinner } from '@/components/ui/spinner';
import { useCourseOptions } from '@/features/courses/api/admin-hooks';
import { CommentsPage } from '@/features/discussions/components/admin/comments-page';
import { WithOwnSchool } from '@/app/own-school';

function Comments({ schoolId }: { schoolId: string }) {
  const courses = useCourseOptions(schoolId);
  if (courses.isPending) return <PageSpinner />;
  return <CommentsPage schoolId={schoolId} courses={(courses.data ?? []).map((c) => ({ id: c.id, title: c.title }))} />;
}

export default function AdminCommentsPage() {
  return <WithOwnSchool>{(school) => <Comments schoolId={school.id} />}</WithOwnSchool>;
}

import { CommentsPage } from '@/features/discussions/components/admin/comments-page';
import { WithOwnSchoolCourses } from '@/app/own-school';

export default function AdminCommentsPage() {
  return (
    <WithOwnSchoolCourses>
      {(schoolId, courses) => <CommentsPage schoolId={schoolId} courses={courses} />}
    </WithOwnSchoolCourses>
  );
}

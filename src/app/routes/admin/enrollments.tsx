import { EnrollmentsPage } from '@/features/enrollments/components/enrollments-page';
import { WithOwnSchoolCourses } from '@/app/own-school';

export default function AdminEnrollmentsPage() {
  return (
    <WithOwnSchoolCourses>
      {(schoolId, courses) => <EnrollmentsPage schoolId={schoolId} courses={courses} />}
    </WithOwnSchoolCourses>
  );
}

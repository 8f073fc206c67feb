import { StudentsPage } from '@/features/students/components/students-page';
import { WithOwnSchoolCourses } from '@/app/own-school';

export default function AdminStudentsPage() {
  return (
    <WithOwnSchoolCourses>
      {(schoolId, courses) => <StudentsPage schoolId={schoolId} courses={courses} />}
    </WithOwnSchoolCourses>
  );
}

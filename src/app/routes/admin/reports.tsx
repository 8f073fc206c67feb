import { ReportsPage } from '@/features/reports/components/reports-page';
import { WithOwnSchoolCourses } from '@/app/own-school';

export default function AdminReportsPage() {
  return (
    <WithOwnSchoolCourses>
      {(schoolId, courses) => <ReportsPage schoolId={schoolId} courses={courses} />}
    </WithOwnSchoolCourses>
  );
}

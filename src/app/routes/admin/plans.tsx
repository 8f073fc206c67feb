import { PlansPage } from '@/features/plans/components/plans-page';
import { WithOwnSchoolCourses } from '@/app/own-school';

// Planos (issue 24): the plans feature, with the school's courses for a plan's course list.
export default function AdminPlansPage() {
  return (
    <WithOwnSchoolCourses>
      {(schoolId, courses) => <PlansPage schoolId={schoolId} courses={courses} />}
    </WithOwnSchoolCourses>
  );
}

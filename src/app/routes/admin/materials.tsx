import { MaterialsPage } from '@/features/materials/components/materials-page';
import { WithOwnSchoolCourses } from '@/app/own-school';

export default function AdminMaterialsPage() {
  return (
    <WithOwnSchoolCourses>
      {(schoolId, courses) => <MaterialsPage schoolId={schoolId} courses={courses} />}
    </WithOwnSchoolCourses>
  );
}

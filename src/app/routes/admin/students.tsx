import { WithOwnSchool } from '@/features/schools/components/own-school';
import { StudentsPage } from '@/features/students/components/students-page';

export default function AdminStudentsPage() {
  return <WithOwnSchool>{(school) => <StudentsPage schoolId={school.id} />}</WithOwnSchool>;
}

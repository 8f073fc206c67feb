import { TurmasPage } from '@/features/turmas/components/turmas-page';
import { WithOwnSchoolCourses } from '@/app/own-school';

// Turmas (issue 40): the turmas feature, with the school's courses for its course picker.
export default function AdminTurmasPage() {
  return <WithOwnSchoolCourses>{(schoolId, courses) => <TurmasPage schoolId={schoolId} courses={courses} />}</WithOwnSchoolCourses>;
}

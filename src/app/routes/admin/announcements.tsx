import { AnnouncementsPage } from '@/features/announcements/components/admin/announcements-page';
import { WithOwnSchoolCourses } from '@/app/own-school';
import { useSession } from '@/platform/session';

// Comunicados: the school's courses for "Para quem" (a turma of a course, issue 40).
export default function AdminAnnouncementsPage() {
  const { user } = useSession();
  return (
    <WithOwnSchoolCourses>
      {(schoolId, courses) => <AnnouncementsPage schoolId={schoolId} userId={user?.id ?? ''} courses={courses} />}
    </WithOwnSchoolCourses>
  );
}

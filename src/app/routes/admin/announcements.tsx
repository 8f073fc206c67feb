import { AnnouncementsPage } from '@/features/announcements/components/admin/announcements-page';
import { WithOwnSchool } from '@/app/own-school';
import { useSession } from '@/platform/session';

export default function AdminAnnouncementsPage() {
  const { user } = useSession();
  return <WithOwnSchool>{(school) => <AnnouncementsPage schoolId={school.id} userId={user?.id ?? ''} />}</WithOwnSchool>;
}

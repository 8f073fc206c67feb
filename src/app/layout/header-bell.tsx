import { AnnouncementBell } from '@/features/announcements/components/announcement-bell';
import { useSession } from '@/lib/session';

/** The member header's bell: the school's active announcements (features/announcements). */
export function HeaderBell() {
  const { school, profile } = useSession();
  return <AnnouncementBell schoolId={school?.id ?? profile?.school_id} />;
}

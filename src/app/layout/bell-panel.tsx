// The bell's open content (loaded on demand: the member header carries only the button and its
// count): the account's notifications (features/notifications), then the school's announcements
// (features/announcements), both from the bell's one request (src/concepts/bell.ts).
import { AnnouncementList } from '@/features/announcements/components/announcement-list';
import type { Announcement } from '@/features/announcements/api/queries';
import { NotificationList } from '@/features/notifications/components/notification-list';

export default function BellPanel({ schoolId, onClose, onOpenAnnouncement }: { schoolId: string | null | undefined; onClose: () => void; onOpenAnnouncement: (a: Announcement) => void }) {
  return (
    <div className="max-h-96 overflow-y-auto">
      <NotificationList schoolId={schoolId} onNavigate={onClose} />
      <AnnouncementList schoolId={schoolId} onOpen={onOpenAnnouncement} />
    </div>
  );
}

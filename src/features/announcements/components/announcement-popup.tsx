import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { useActiveAnnouncements } from '../api/hooks';
import { markSeenToday, seenToday } from '../lib/seen';
import { preloadAnnouncementBody } from './announcement-body-chunk';
import { AnnouncementDialog } from './announcement-dialog';

/** The school's highest-priority active announcement, at most once a day per school; 'Entendi' closes it. */
export function AnnouncementPopup({ schoolId }: { schoolId: string }) {
  const { data } = useActiveAnnouncements(schoolId);
  // Decided once per mount: closing it today must not make it come back on this visit either.
  const [alreadySeen] = useState(() => seenToday(schoolId));
  const [closed, setClosed] = useState(false);
  // Not seen today: fetch the body's code while the announcements load, so its text shows with the
  // dialog rather than a moment after.
  useEffect(() => {
    if (!alreadySeen) void preloadAnnouncementBody();
  }, [alreadySeen]);
  const announcement = data?.[0];
  if (!announcement || alreadySeen) return null;

  const close = () => {
    markSeenToday(schoolId);
    setClosed(true);
  };

  return (
    <AnnouncementDialog
      announcement={announcement}
      open={!closed}
      onClose={close}
      badge
      description="Comunicado da escola"
      describeOnlyForScreenReaders
      testId="announcement-popup"
      footer={
        <Button onClick={close} className="w-full sm:w-auto">
          Entendi
        </Button>
      }
    />
  );
}

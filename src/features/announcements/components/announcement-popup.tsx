import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { useActiveAnnouncements } from '../api/hooks';
import { markSeenToday, seenToday } from '../lib/seen';
import { preloadAnnouncementDialog } from './announcement-dialog-chunk';
import { LazyAnnouncementDialog } from './lazy-announcement-dialog';

/** The school's highest-priority active announcement, at most once a day per school; 'Entendi' closes it. */
export function AnnouncementPopup({ schoolId }: { schoolId: string }) {
  const { data } = useActiveAnnouncements(schoolId);
  // Decided once per mount: closing it today must not make it come back on this visit either.
  const [alreadySeen] = useState(() => seenToday(schoolId));
  const [closed, setClosed] = useState(false);
  // Not seen today: fetch the dialog's code while the announcements load, so it opens with the data
  // (as soon as before it was split off), not a moment after.
  useEffect(() => {
    if (!alreadySeen) void preloadAnnouncementDialog();
  }, [alreadySeen]);
  const announcement = data?.[0];
  if (!announcement || alreadySeen) return null;

  const close = () => {
    markSeenToday(schoolId);
    setClosed(true);
  };

  return (
    <LazyAnnouncementDialog
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

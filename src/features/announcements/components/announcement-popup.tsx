import { lazy, Suspense, useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { useActiveAnnouncements } from '../api/hooks';
import { markSeenToday, seenToday } from '../lib/seen';
import { preloadAnnouncementBody } from './announcement-body-chunk';

// The dialog's code (Radix Dialog and its focus machinery) comes only when there is one to show
// (issue 21: most visits have none, and the home's first download goes without it).
const AnnouncementDialog = lazy(() => import('./announcement-dialog').then((m) => ({ default: m.AnnouncementDialog })));

/** The school's highest-priority active announcement, at most once a day per school; 'Entendi' closes it. */
export function AnnouncementPopup({ schoolId }: { schoolId: string }) {
  const { data } = useActiveAnnouncements(schoolId);
  // Decided once per mount: closing it today must not make it come back on this visit either.
  const [alreadySeen] = useState(() => seenToday(schoolId));
  const [closed, setClosed] = useState(false);
  const announcement = data?.[0];
  const show = !!announcement && !alreadySeen;
  // One to show: the body's code (marked, DOMPurify) comes with the dialog's, so its text shows with
  // the dialog rather than a moment after. A visit with nothing to show downloads neither.
  useEffect(() => {
    if (show) void preloadAnnouncementBody();
  }, [show]);
  if (!show) return null;

  const close = () => {
    markSeenToday(schoolId);
    setClosed(true);
  };

  return (
    <Suspense fallback={null}>
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
    </Suspense>
  );
}

import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { useActiveAnnouncements } from '../api/hooks';
import { markSeenToday, seenToday } from '../lib/seen';
import { preloadAnnouncementBody } from './announcement-body-chunk';

// The dialog's code (Radix Dialog and its focus machinery) comes only when there is one to show
// (issue 21: most visits have none, and the home's first download goes without it).
const AnnouncementDialog = lazy(() => import('./announcement-dialog').then((m) => ({ default: m.AnnouncementDialog })));

/** True once the person has clicked, tapped or typed on the page, while `listening`. */
function useStartedUsingPage(listening: boolean): boolean {
  const [started, setStarted] = useState(false);
  useEffect(() => {
    if (!listening || started) return;
    const start = () => setStarted(true);
    window.addEventListener('pointerdown', start, true);
    window.addEventListener('keydown', start, true);
    return () => {
      window.removeEventListener('pointerdown', start, true);
      window.removeEventListener('keydown', start, true);
    };
  }, [listening, started]);
  return started;
}

/** Runs `run` when it mounts: inside the Suspense boundary, when the dialog beside it is on screen. */
function WhenShown({ run }: { run: () => void }) {
  useEffect(() => run(), [run]);
  return null;
}

/** The school's highest-priority active announcement, at most once a day per school; 'Entendi' closes it. */
export function AnnouncementPopup({ schoolId }: { schoolId: string }) {
  const { data } = useActiveAnnouncements(schoolId);
  // Decided once per mount: closing it today must not make it come back on this visit either.
  const [alreadySeen] = useState(() => seenToday(schoolId));
  const [closed, setClosed] = useState(false);
  const [opened, setOpened] = useState(false);
  const markOpened = useCallback(() => setOpened(true), []);
  // On a first visit the announcements and the dialog's code arrive a moment after the page: a modal
  // opening then would take the click or key the person meant for the page. Once they have started,
  // it waits for their next return to the home (not marked seen), where it opens with the page.
  const startedUsingPage = useStartedUsingPage(!opened);
  const announcement = data?.[0];
  const show = !!announcement && !alreadySeen && (opened || !startedUsingPage);
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
      <WhenShown run={markOpened} />
    </Suspense>
  );
}

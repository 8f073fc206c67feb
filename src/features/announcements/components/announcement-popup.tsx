import { useState } from 'react';
import { Megaphone } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useActiveAnnouncements } from '../api/hooks';
import { markSeenToday, seenToday } from '../lib/seen';
import { LazyAnnouncementBody as AnnouncementBody } from './lazy-announcement-body';

/** The school's highest-priority active announcement, at most once a day per school; 'Entendi' closes it. */
export function AnnouncementPopup({ schoolId }: { schoolId: string }) {
  const { data } = useActiveAnnouncements(schoolId);
  // Decided once per mount: closing it today must not make it come back on this visit either.
  const [alreadySeen] = useState(() => seenToday(schoolId));
  const [closed, setClosed] = useState(false);
  const announcement = data?.[0];
  if (!announcement || alreadySeen) return null;

  const close = () => {
    markSeenToday(schoolId);
    setClosed(true);
  };

  return (
    <Dialog open={!closed} onOpenChange={(open) => !open && close()}>
      <DialogContent className="max-w-xl" data-testid="announcement-popup">
        <DialogHeader className="pr-6">
          <span className="mb-1 inline-flex w-fit items-center gap-1.5 rounded-full bg-primary/10 px-2.5 py-1 text-xs font-medium text-primary">
            <Megaphone className="size-3.5" aria-hidden="true" />
            Comunicado
          </span>
          <DialogTitle className="text-xl leading-snug">{announcement.title}</DialogTitle>
          <DialogDescription className="sr-only">Comunicado da escola</DialogDescription>
        </DialogHeader>
        <AnnouncementBody announcement={announcement} />
        <DialogFooter>
          <Button onClick={close} className="w-full sm:w-auto">
            Entendi
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

// One announcement in a dialog: the daily popup ('Entendi') and the one opened from the bell. The
// dialog opens at once; its body's code (marked, DOMPurify) loads on demand (lazy-announcement-body).
import type { ReactNode } from 'react';
import { Megaphone } from 'lucide-react';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import type { Announcement } from '../api/queries';
import { LazyAnnouncementBody as AnnouncementBody } from './lazy-announcement-body';

export interface AnnouncementDialogProps {
  announcement: Announcement;
  open: boolean;
  onClose: () => void;
  /** Under the title (the date), or only for screen readers when `describeOnlyForScreenReaders`. */
  description: string;
  describeOnlyForScreenReaders?: boolean;
  /** The 'Comunicado' badge above the title (the popup). */
  badge?: boolean;
  footer?: ReactNode;
  testId?: string;
}

export function AnnouncementDialog({ announcement, open, onClose, description, describeOnlyForScreenReaders, badge, footer, testId }: AnnouncementDialogProps) {
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="max-w-xl" data-testid={testId}>
        <DialogHeader className="pr-6">
          {badge && (
            <span className="mb-1 inline-flex w-fit items-center gap-1.5 rounded-full bg-primary/10 px-2.5 py-1 text-xs font-medium text-primary-on-tint">
              <Megaphone className="size-3.5" aria-hidden="true" />
              Comunicado
            </span>
          )}
          <DialogTitle className="text-xl leading-snug">{announcement.title}</DialogTitle>
          <DialogDescription className={describeOnlyForScreenReaders ? 'sr-only' : undefined}>{description}</DialogDescription>
        </DialogHeader>
        <AnnouncementBody announcement={announcement} />
        {footer && <DialogFooter>{footer}</DialogFooter>}
      </DialogContent>
    </Dialog>
  );
}

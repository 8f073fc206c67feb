// AnnouncementDialog loaded on demand: nothing shows until its chunk arrives (a moment, once).
import { lazy, Suspense } from 'react';
import type { AnnouncementDialogProps } from './announcement-dialog';
import { preloadAnnouncementDialog } from './announcement-dialog-chunk';

const AnnouncementDialog = lazy(preloadAnnouncementDialog);

export function LazyAnnouncementDialog(props: AnnouncementDialogProps) {
  return (
    <Suspense fallback={null}>
      <AnnouncementDialog {...props} />
    </Suspense>
  );
}

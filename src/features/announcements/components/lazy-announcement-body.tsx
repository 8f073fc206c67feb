// The announcement's HTML body needs marked and DOMPurify (~25 KB gzip): its code loads when an
// announcement is first shown (the popup starts it while the announcements load), not with every
// student page. The dialog around it opens at once.
import { lazy, Suspense, type ComponentProps } from 'react';
import { Spinner } from '@/components/ui/spinner';
import { preloadAnnouncementBody } from './announcement-body-chunk';

const AnnouncementBody = lazy(() => preloadAnnouncementBody().then((m) => ({ default: m.AnnouncementBody })));

export function LazyAnnouncementBody(props: ComponentProps<typeof AnnouncementBody>) {
  return (
    <Suspense
      fallback={
        <div className="flex justify-center py-6">
          <Spinner />
        </div>
      }
    >
      <AnnouncementBody {...props} />
    </Suspense>
  );
}

// The announcement's HTML body needs marked and DOMPurify (~25 KB gzip): loaded when an announcement
// is first shown (the popup, or one opened from the bell), not with every student page.
import { lazy, Suspense, type ComponentProps } from 'react';
import { Spinner } from '@/components/ui/spinner';

const AnnouncementBody = lazy(() => import('./announcement-body').then((m) => ({ default: m.AnnouncementBody })));

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

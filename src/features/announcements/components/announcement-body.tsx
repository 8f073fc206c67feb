import { lazy, Suspense, useMemo } from 'react';
import { Spinner } from '@/components/ui/spinner';
import { StorageImage } from '@/components/ui/storage-image';
import { sanitizeHtml } from '@/utils/sanitize';
import { useAnnouncementVideoUrl } from '../api/hooks';
import type { Announcement } from '../api/queries';

const ReactPlayer = lazy(() => import('react-player'));

function AnnouncementVideo({ announcement }: { announcement: Announcement }) {
  const direct = announcement.video_type === 'direct';
  const signed = useAnnouncementVideoUrl(direct ? announcement.video_url : null);
  const frame = 'relative aspect-video w-full overflow-hidden rounded-lg bg-slate-950';
  if (direct) {
    if (signed.isPending) return <div className={`${frame} flex items-center justify-center`}><Spinner className="text-white" /></div>;
    if (!signed.data) return null;
    return (
      <div className={frame}>
        <video
          src={signed.data}
          controls
          controlsList="nodownload"
          disablePictureInPicture
          playsInline
          preload="metadata"
          onContextMenu={(e) => e.preventDefault()}
          className="absolute inset-0 size-full"
        />
      </div>
    );
  }
  return (
    <div className={frame}>
      <Suspense fallback={<div className="flex size-full items-center justify-center"><Spinner className="text-white" /></div>}>
        <ReactPlayer src={announcement.video_url ?? undefined} controls width="100%" height="100%" style={{ position: 'absolute', inset: 0 }} />
      </Suspense>
    </div>
  );
}

/** Image, sanitized HTML body and video of an announcement (title is rendered by the caller). */
export function AnnouncementBody({ announcement }: { announcement: Announcement }) {
  const html = useMemo(() => sanitizeHtml(announcement.body), [announcement.body]);
  return (
    <div className="grid gap-4">
      {announcement.image_url && (
        // The announcement dialog is at most 32rem wide (less its padding).
        <StorageImage src={announcement.image_url} sizes="(min-width: 640px) 30rem, calc(100vw - 3rem)" className="aspect-video w-full rounded-lg bg-muted object-cover" />
      )}
      {/* Sanitised with the SPEC §5 allow-list (src/utils/sanitize.ts). */}
      <div className="prose-content" data-testid="announcement-body" dangerouslySetInnerHTML={{ __html: html }} />
      {announcement.video_url && <AnnouncementVideo announcement={announcement} />}
    </div>
  );
}

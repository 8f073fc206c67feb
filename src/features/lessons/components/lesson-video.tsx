import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState, type SyntheticEvent } from 'react';
import { RefreshCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { afterIdle, rememberLcpFrame, removeLcpShell } from '@/platform/first-visit';
import { useSignedVideoUrl } from '../api/hooks';
import { HOSTED_VIDEO, isStoragePath } from '../api/lesson-urls';
import { usePlayback, type UsePlaybackOptions } from '../hooks/use-playback';
import { usePlayerFullscreen } from '../hooks/use-player-fullscreen';
import { resumePosition } from '../lib/playback';
import { loadYouTubeApi } from '../lib/youtube-api';
import type { Rendition } from './hosted-video';
import { SpeedControl } from './speed-control';
import { Frame, LoadingVideo, NoVideo, VideoError } from './video-frame';
import { VideoPoster } from './video-poster';
import { FullscreenButton, VideoWatermark } from './video-watermark';
import type { Tables } from '@/types/database';

const loadReactPlayer = () => import('react-player');
const ReactPlayer = lazy(loadReactPlayer);
// The video host's HLS player (hls.js): its own chunk, loaded only by lessons whose video is there.
const HostedVideo = lazy(() => import('./hosted-video').then((m) => ({ default: m.HostedVideo })));
/** hls.js's level for automatic quality (./hosted-video.tsx's AUTO_QUALITY, kept out of this chunk). */
const AUTO_QUALITY = -1;

export type LessonVideoKind = Tables<'lessons'>['video_type'];

export interface LessonVideoProps extends UsePlaybackOptions {
  lessonId: string;
  kind: LessonVideoKind;
  /** External URL (youtube/vimeo), object path in lesson-videos (upload), or 'video-host' (an upload
   * at the video host, played through video-playback). */
  url: string | null;
  /** An uploaded video's poster (course-thumbnails path), shown until the video paints its first frame. */
  poster?: string | null;
  /** The signed-in account: an uploaded video's frame where it leaves it is shown at once on its next
   * visit to this lesson (src/platform/first-visit/lcp-hint.ts). */
  viewerId?: string;
}

/** YouTube's player script for a YouTube lesson ('ready' at once for any other kind); `retry` asks again. */
function useYouTubeApi(needed: boolean): { state: 'loading' | 'ready' | 'failed'; retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  const [result, setResult] = useState<{ attempt: number; ok: boolean } | null>(null);
  useEffect(() => {
    if (!needed) return;
    let live = true;
    // The player's code downloads meanwhile, not after (lazy() reports its own failure).
    loadReactPlayer().catch(() => undefined);
    loadYouTubeApi().then(
      () => live && setResult({ attempt, ok: true }),
      () => live && setResult({ attempt, ok: false }),
    );
    return () => {
      live = false;
    };
  }, [needed, attempt]);
  const state = !needed ? 'ready' : result?.attempt !== attempt ? 'loading' : result.ok ? 'ready' : 'failed';
  return { state, retry: () => setAttempt((n) => n + 1) };
}

export type MediaLike = { currentTime: number; duration: number };

/** The frame the video shows now, for the account's next visit to this lesson (lcp-hint.ts). */
function keepFrameOf(video: HTMLVideoElement | null, viewerId: string | undefined) {
  if (video && viewerId) rememberLcpFrame(video, viewerId, video.parentElement ?? undefined);
}

/** The lesson's video: YouTube/Vimeo through react-player, an uploaded file through a short-lived
 * signed URL in a <video> without download, context menu or picture-in-picture. Every kind reports
 * time updates to the position/completion rules; the speed control is ours for all kinds. */
export function LessonVideo(props: LessonVideoProps) {
  const { kind, url } = props;
  const [rate, setRate] = useState(1);
  const playback = usePlayback(props);
  const resumed = useRef(false);
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const resumeAfterError = useRef<number | null>(null);
  const shownFirstFrame = useRef(false);
  const [posterShown, setPosterShown] = useState(true);
  const hosted = kind === 'upload' && url === HOSTED_VIDEO;
  const signed = useSignedVideoUrl(kind === 'upload' && isStoragePath(url) ? url : null);
  // The hosted video's renditions (from its HLS levels) and the one the student pinned.
  const [renditions, setRenditions] = useState<Rendition[]>([]);
  const [quality, setQuality] = useState(AUTO_QUALITY);
  // The player, its watermark and its controls go full screen together (issue 39).
  const playerBox = useRef<HTMLDivElement | null>(null);
  const fullscreen = usePlayerFullscreen(playerBox);
  const youtube = useYouTubeApi(kind === 'youtube' && !!url);
  // react-player's own error (a video removed, private or not embeddable): drawn again on retry.
  const [playerError, setPlayerError] = useState<number | null>(null);
  const [playerKey, setPlayerKey] = useState(0);
  const { viewerId } = props;
  const keepFrame = () => keepFrameOf(videoRef.current, viewerId);
  const showingFirstFrame = () => {
    removeLcpShell();
    setPosterShown(false);
    if (shownFirstFrame.current) return;
    shownFirstFrame.current = true;
    afterIdle(keepFrame);
  };
  // Where the student leaves the video: on pause, when the page goes, and when another page opens
  // (a layout effect's cleanup: the video is still in the page, laid out, to be measured and drawn).
  useLayoutEffect(() => {
    const keep = () => keepFrameOf(videoRef.current, viewerId);
    window.addEventListener('pagehide', keep);
    return () => {
      window.removeEventListener('pagehide', keep);
      keep();
    };
  }, [viewerId]);

  if (kind === 'none' || !url) return <NoVideo />;

  const onLoadedMetadata = (e: SyntheticEvent<HTMLVideoElement>) => resumeAt(e.currentTarget);
  /** The video's length is known: it starts where the student left it (or where it failed). */
  const resumeAt = (media: MediaLike) => {
    if (resumeAfterError.current !== null) {
      media.currentTime = resumeAfterError.current;
      resumeAfterError.current = null;
      return;
    }
    if (resumed.current) return;
    resumed.current = true;
    const at = resumePosition(props.startAt, media.duration);
    // A hosted video may already stand where it was told to start (its startPosition), or past the end.
    if (at > 0 || media.currentTime > 0) media.currentTime = at;
  };
  const onTimeUpdate = (e: SyntheticEvent<HTMLVideoElement>) => {
    const media: MediaLike = e.currentTarget;
    playback.onTime(media.currentTime, media.duration);
  };

  let player: React.ReactNode;
  if (hosted) {
    player = (
      <Suspense fallback={<LoadingVideo />}>
        <HostedVideo
          lessonId={props.lessonId}
          rate={rate}
          quality={quality}
          startAt={resumePosition(props.startAt, props.durationSec)}
          onRenditions={setRenditions}
          onMetadata={resumeAt}
          onTimeUpdate={onTimeUpdate}
          onPause={playback.onPause}
          onLoadedData={() => {
            removeLcpShell();
            setPosterShown(false);
          }}
        />
      </Suspense>
    );
  } else if (kind === 'upload') {
    if (signed.isPending) {
      player = <LoadingVideo />;
    } else if (signed.isError || !signed.data) {
      player = (
        <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-black text-slate-300">
          <p className="text-sm">Não foi possível carregar o vídeo.</p>
          <Button size="sm" variant="outline" onClick={() => void signed.refetch()}>
            <RefreshCw aria-hidden="true" /> Tentar novamente
          </Button>
        </div>
      );
    } else {
      player = (
        <video
          ref={(el) => {
            videoRef.current = el;
            if (el) el.playbackRate = rate;
          }}
          key={signed.data}
          src={signed.data}
          // By CORS without credentials: the API's preconnected connection, not a new one to Storage.
          crossOrigin="anonymous"
          controls
          // No full screen of the video alone (it would leave the watermark out): ours, below.
          controlsList="nodownload noplaybackrate noremoteplayback nofullscreen"
          disablePictureInPicture
          disableRemotePlayback
          playsInline
          preload="metadata"
          onContextMenu={(e) => e.preventDefault()}
          onLoadedMetadata={onLoadedMetadata}
          // The video shows its first frame (where it resumes): the HTML's copy of the last one goes,
          // and this one is kept, when the browser is idle, in case the page is closed without notice.
          onLoadedData={(e) => {
            if (!e.currentTarget.seeking) showingFirstFrame();
          }}
          onSeeked={showingFirstFrame}
          onTimeUpdate={onTimeUpdate}
          onPause={() => {
            playback.onPause();
            keepFrame();
          }}
          onRateChange={(e) => {
            if (e.currentTarget.playbackRate !== rate) e.currentTarget.playbackRate = rate;
          }}
          onError={(e) => {
            // The signed URL may have expired during a long session: get a new one, keep the place.
            resumeAfterError.current = e.currentTarget.currentTime || null;
            void signed.refetch();
          }}
          data-testid="lesson-video"
          // No background: the poster beneath shows until the first frame (the frame itself is black).
          className="absolute inset-0 size-full"
        />
      );
    }
  } else if (youtube.state === 'failed') {
    player = <VideoError onRetry={youtube.retry} />;
  } else if (playerError === playerKey) {
    player = <VideoError onRetry={() => setPlayerKey((k) => k + 1)} />;
  } else {
    const loading = <LoadingVideo />;
    // A YouTube lesson waits for YouTube's script (ours to load: its failure is said, not thrown).
    player =
      youtube.state === 'loading' ? (
        loading
      ) : (
        <Suspense fallback={loading}>
          <ReactPlayer
            key={playerKey}
            src={url}
            controls
            playbackRate={rate}
            width="100%"
            height="100%"
            style={{ position: 'absolute', inset: 0 }}
            // Their own full-screen (and picture-in-picture) buttons would leave the watermark out: ours, below.
            config={{ youtube: { fs: 0 }, vimeo: { fullscreen: false, pip: false } }}
            onLoadedMetadata={onLoadedMetadata}
            onTimeUpdate={onTimeUpdate}
            onPause={playback.onPause}
            onError={() => setPlayerError(playerKey)}
          />
        </Suspense>
      );
  }

  return (
    <div ref={playerBox} data-testid="video-player" className={fullscreen.active ? 'flex flex-col bg-black p-2' : 'grid gap-2'}>
      <Frame kind={kind} fullscreen={fullscreen.active}>
        {/* Beneath the player: its <video> is see-through until its first frame, and its notices cover it. */}
        {kind === 'upload' && props.poster && posterShown && <VideoPoster path={props.poster} />}
        {player}
        <VideoWatermark />
      </Frame>
      <div className="flex items-center justify-end gap-2 px-2 sm:px-0">
        <SpeedControl
          rate={rate}
          onChange={(r) => {
            setRate(r);
            if (videoRef.current) videoRef.current.playbackRate = r;
          }}
          quality={hosted && renditions.length > 0 ? { renditions, level: quality, onChange: setQuality } : undefined}
        />
        {fullscreen.supported && <FullscreenButton active={fullscreen.active} onClick={fullscreen.toggle} />}
      </div>
    </div>
  );
}

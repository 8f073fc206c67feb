// A lesson's video at the video host (issue 39, docs/video.md): encrypted adaptive HLS played with
// react-player (hls.js), in its own chunk that only such lessons load (./lesson-video.tsx). The playback
// session (../hooks/use-hosted-playback.ts) gives the URL and renews it; every request the player makes
// goes under the newest URL's token, so the picture never restarts at a renewal. A refusal takes the
// picture away and says why, with "Assistir aqui" where watching here is the student's choice.
import { useCallback, useEffect, useMemo, useRef, useState, type ComponentType, type SyntheticEvent } from 'react';
import ReactPlayer from 'react-player';
import HlsVideoPlayer from 'hls-video-element/react';
import type { VideoElementProps } from 'react-player/types';
import { VideoOff } from 'lucide-react';
import type HlsVideoElement from 'hls-video-element';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useHostedPlayback, type HostedPlaybackState } from '../hooks/use-hosted-playback';
import { renditionLabel, underLatestToken } from '../lib/hosted-playback';
import type { MediaLike } from './lesson-video';

/** A rendition of the "Qualidade" menu: hls.js's level index and its name (240p, 360p, 720p). */
export interface Rendition {
  level: number;
  label: string;
}

/** hls.js's level for automatic quality. */
export const AUTO_QUALITY = -1;

export interface HostedVideoProps {
  lessonId: string;
  rate: number;
  /** The pinned rendition's level, or AUTO_QUALITY. */
  quality: number;
  /** Where the picture resumes (0: the start): hls.js's first segment is that one, not the video's start
   * (on 4G, fetching the start first and then the saved place doubled the wait for the first frame). */
  startAt: number;
  onRenditions: (renditions: Rendition[]) => void;
  /** The video's length is known (where it resumes is the caller's). */
  onMetadata: (media: MediaLike) => void;
  onTimeUpdate: (e: SyntheticEvent<HTMLVideoElement>) => void;
  onPause: () => void;
  /** The picture shows its first frame. */
  onLoadedData: () => void;
}

type HlsElement = HTMLVideoElement & Pick<HlsVideoElement, 'api'>;

// react-player's own HLS element (hls-video-element, with hls.js), given to it as a custom player that
// renders with the rest: react-player loads it lazily, so the element was made in a Suspense retry, a
// render React may interrupt and make again, and each element made in a discarded pass still loaded the
// stream's start with an hls.js instance nobody destroyed (seen in Chromium: up to 6 per page load).
ReactPlayer.addCustomPlayer?.({ key: 'hls', name: 'hls.js', canPlay: (src) => /\.m3u8($|\?)/i.test(src), player: HlsVideoPlayer as ComponentType<VideoElementProps> });

/** Pins hls.js to a rendition (at once: the buffer ahead is dropped), or back to automatic. */
function pinQuality(el: HlsElement | null, level: number) {
  const api = el?.api;
  if (api?.levels.length && (api.autoLevelEnabled ? AUTO_QUALITY : api.currentLevel) !== level)
    api.currentLevel = level;
}

function Notice({ children, action, onAction }: { children: React.ReactNode; action?: string; onAction?: () => void }) {
  return (
    <div
      role="alert"
      data-testid="video-notice"
      className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-black px-6 text-center text-slate-200"
      // Over the watermark (there is no picture to mark), inline: no new class in the first page's stylesheet.
      style={{ zIndex: 20 }}
    >
      {/* No room for it in a phone's 16:9 frame. */}
      <VideoOff className="hidden size-8 text-slate-400 sm:block" aria-hidden="true" />
      <div className="grid max-w-md gap-1 text-sm">{children}</div>
      {action && (
        <Button size="sm" onClick={onAction}>
          {action}
        </Button>
      )}
    </div>
  );
}

/** What the student sees instead of the picture, for each state but 'playing'. */
function PlaybackNotice({
  state,
  watchHere,
  retry,
}: {
  state: Exclude<HostedPlaybackState, { status: 'playing' }>;
  watchHere: () => void;
  retry: () => void;
}) {
  switch (state.status) {
    case 'starting':
      return (
        <div className="absolute inset-0 flex items-center justify-center">
          <Spinner className="text-white" label="Carregando vídeo..." />
        </div>
      );
    case 'too_many_screens':
      return (
        <Notice action="Assistir aqui" onAction={watchHere}>
          <p className="font-medium text-white">{state.message}</p>
          <p>Para assistir aqui, o vídeo para no dispositivo que começou a assistir primeiro.</p>
        </Notice>
      );
    case 'session_ended':
      return (
        <Notice action="Assistir aqui" onAction={watchHere}>
          <p className="font-medium text-white">O vídeo parou neste dispositivo.</p>
          <p>A sua conta começou a assistir em outro dispositivo, ou a sessão foi encerrada.</p>
        </Notice>
      );
    case 'processing':
      return state.failed ? (
        <Notice>
          <p className="font-medium text-white">Não foi possível processar o vídeo desta aula.</p>
          <p>Avise a escola para que o envie novamente.</p>
        </Notice>
      ) : (
        <Notice action="Verificar novamente" onAction={retry}>
          <p className="font-medium text-white">O vídeo desta aula ainda está sendo processado.</p>
          <p>Ele fica disponível em alguns minutos.</p>
        </Notice>
      );
    case 'refused':
      return (
        <Notice action="Tentar novamente" onAction={retry}>
          <p className="font-medium text-white">{state.message}</p>
        </Notice>
      );
    case 'unreachable':
      return (
        <Notice action="Tentar novamente" onAction={retry}>
          <p className="font-medium text-white">Não foi possível carregar o vídeo.</p>
          <p>Verifique sua conexão. Tentando de novo...</p>
        </Notice>
      );
  }
}

export function HostedVideo({
  lessonId,
  rate,
  quality,
  startAt,
  onRenditions,
  onMetadata,
  onTimeUpdate,
  onPause,
  onLoadedData,
}: HostedVideoProps) {
  const playback = useHostedPlayback(lessonId);
  const { state } = playback;
  const element = useRef<HlsElement | null>(null);
  // Where the picture was when it stopped (a session ended): the next session resumes there.
  const lastTime = useRef(0);
  const src = state.status === 'playing' ? state.src : null;
  // hls.js reads its config when it loads the source: every playlist, segment and key request goes
  // under the newest playback URL's token.
  const { latestUrl } = playback;
  // Read once per source: the saved position moves while the student watches.
  const [startPosition] = useState(startAt);
  const hlsConfig = useMemo(
    () =>
      src
        ? {
            // The first segment from the lowest rendition (240p), the soonest picture on a slow link; the
            // automatic quality climbs from the next one, as fast as the link proves. Left to itself,
            // hls.js guesses the link from the host's first-listed rendition, which may be the highest.
            startLevel: 0,
            ...(startPosition > 0 ? { startPosition } : {}),
            xhrSetup: (xhr: XMLHttpRequest, url: string) =>
              xhr.open('GET', underLatestToken(url, src, latestUrl.current ?? src), true),
          }
        : {},
    [src, latestUrl, startPosition],
  );
  // The player could not play this source (a network or media failure): said, with a retry.
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  // Once per element, when its length and renditions are known: the "Qualidade" menu, the pinned
  // rendition, and where it resumes (where a stopped session left it, else the caller's position).
  const latest = useRef({ quality, onRenditions, onMetadata });
  useEffect(() => {
    latest.current = { quality, onRenditions, onMetadata };
  });
  const metadataOf = useRef<HlsElement | null>(null);
  const onMetadataOf = useCallback((el: HlsElement) => {
    if (metadataOf.current === el) return;
    metadataOf.current = el;
    const { quality, onRenditions, onMetadata } = latest.current;
    onRenditions((el.api?.levels ?? []).map((level, index) => ({ level: index, label: renditionLabel(level) })));
    pinQuality(el, quality);
    if (lastTime.current > 0) el.currentTime = lastTime.current;
    else onMetadata(el);
  }, []);
  const attach = useCallback(
    (el: HlsElement | null) => {
      element.current = el;
      if (!el) return;
      // No download, no full screen of the video alone (it would leave the watermark out: ours is beside
      // the speed), no picture-in-picture: the element passes these on to its <video>.
      el.setAttribute('controlslist', 'nodownload noplaybackrate noremoteplayback nofullscreen');
      el.setAttribute('disablepictureinpicture', '');
      el.setAttribute('data-testid', 'lesson-video');
      // React may create the element, and hls.js load the stream's start, in a render it commits later:
      // its loadedmetadata may have fired before anyone listened.
      if (el.readyState >= HTMLMediaElement.HAVE_METADATA) queueMicrotask(() => onMetadataOf(el));
    },
    [onMetadataOf],
  );

  useEffect(() => pinQuality(element.current, quality), [quality]);

  if (state.status !== 'playing')
    return <PlaybackNotice state={state} watchHere={playback.watchHere} retry={playback.retry} />;
  if (failedSrc === state.src)
    return (
      <PlaybackNotice
        state={{
          status: 'refused',
          message: 'Não foi possível carregar o vídeo. Verifique sua conexão e tente de novo.',
        }}
        watchHere={playback.watchHere}
        retry={playback.retry}
      />
    );

  return (
    <div className="absolute inset-0" onContextMenu={(e) => e.preventDefault()}>
      <ReactPlayer
        key={state.src}
        ref={attach}
        src={state.src}
        config={{ hls: hlsConfig }}
        controls
        playsInline
        playbackRate={rate}
        width="100%"
        height="100%"
        style={{ position: 'absolute', inset: 0 }}
        onLoadedMetadata={(e) => onMetadataOf(e.currentTarget as HlsElement)}
        onLoadedData={onLoadedData}
        onTimeUpdate={(e) => {
          lastTime.current = e.currentTarget.currentTime;
          onTimeUpdate(e);
        }}
        onPause={onPause}
        onError={() => setFailedSrc(state.src)}
      />
    </div>
  );
}

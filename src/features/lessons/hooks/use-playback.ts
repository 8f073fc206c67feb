import { useCallback, useEffect, useRef } from 'react';
import { createPlaybackTracker, type PlaybackTracker } from '../lib/playback';

export interface UsePlaybackOptions {
  durationSec: number;
  completed: boolean;
  startAt: number;
  /** Every 10 seconds of playback, on pause, and when leaving inside the app (unmount, tab hidden). */
  onSave: (positionSec: number) => void;
  /** The page is being unloaded: last-chance save (keepalive). */
  onUnload: (positionSec: number) => void;
  onComplete: () => void;
}

/** Feeds player time updates to the 10-second / 90% rules and saves the position when leaving.
 * Mount it once per lesson (the player is keyed by lesson id). */
export function usePlayback(options: UsePlaybackOptions) {
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const trackerRef = useRef<PlaybackTracker | null>(null);
  const lastSaved = useRef<number | null>(null);
  const playedSomething = useRef(false);

  // Created on the first time update (never during render); callbacks read the latest options.
  const tracker = useCallback((): PlaybackTracker => {
    if (!trackerRef.current) {
      const o = latest.current;
      trackerRef.current = createPlaybackTracker({
        durationSec: o.durationSec,
        completed: o.completed,
        startAt: o.startAt,
        onSave: (t) => {
          lastSaved.current = Math.floor(t);
          latest.current.onSave(t);
        },
        onComplete: () => latest.current.onComplete(),
      });
    }
    return trackerRef.current;
  }, []);

  useEffect(() => {
    if (options.completed) trackerRef.current?.markCompleted();
  }, [options.completed]);

  const saveIfMoved = useCallback((kind: 'save' | 'unload') => {
    const t = trackerRef.current?.position ?? 0;
    if (!playedSomething.current || lastSaved.current === Math.floor(t)) return;
    lastSaved.current = Math.floor(t);
    if (kind === 'unload') latest.current.onUnload(t);
    else latest.current.onSave(t);
  }, []);

  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') saveIfMoved('save');
    };
    const onPageHide = () => saveIfMoved('unload');
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', onPageHide);
      saveIfMoved('save');
    };
  }, [saveIfMoved]);

  const onTime = useCallback(
    (currentTime: number, mediaDuration?: number | null) => {
      if (currentTime > 0) playedSomething.current = true;
      tracker().update(currentTime, mediaDuration);
    },
    [tracker],
  );

  const onPause = useCallback(() => saveIfMoved('save'), [saveIfMoved]);

  return { onTime, onPause };
}

// Playback rules of SPEC §4/§9: the position is saved every 10 seconds of playback, and a lesson
// completes itself when playback reaches 90% of its duration_sec. Same rules for every player kind
// (uploaded file, YouTube, Vimeo): they all report time updates.

export const POSITION_SAVE_EVERY_SEC = 10;

/** The speeds the player's menu offers. */
export const PLAYBACK_RATES = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2] as const;

/** A speed as the menu shows it: 1,5x. */
export function rateLabel(rate: number): string {
  return `${String(rate).replace('.', ',')}x`;
}
export const AUTO_COMPLETE_RATIO = 0.9;

/** The duration the 90% rule uses: the lesson's duration_sec, or the media's own when that is unset. */
export function effectiveDuration(durationSec: number | null | undefined, mediaDuration?: number | null): number {
  if (durationSec && durationSec > 0) return durationSec;
  return mediaDuration && Number.isFinite(mediaDuration) && mediaDuration > 0 ? mediaDuration : 0;
}

export function reachedCompletion(currentTime: number, durationSec: number | null | undefined, mediaDuration?: number | null): boolean {
  const d = effectiveDuration(durationSec, mediaDuration);
  return d > 0 && currentTime >= AUTO_COMPLETE_RATIO * d;
}

/** Where to start: the saved position, unless it is (almost) the end, then from the start. */
export function resumePosition(savedSec: number | null | undefined, mediaDuration?: number | null): number {
  const saved = savedSec && savedSec > 0 ? savedSec : 0;
  if (saved === 0) return 0;
  if (mediaDuration && Number.isFinite(mediaDuration) && mediaDuration > 0 && saved >= mediaDuration - 0.5) return 0;
  return saved;
}

export interface PlaybackTrackerOptions {
  durationSec: number;
  /** The lesson is already completed (no auto-complete then). */
  completed: boolean;
  /** Position at load (resume point): the first save happens at the next 10-second mark after it. */
  startAt?: number;
  onSave: (positionSec: number) => void;
  onComplete: () => void;
}

export interface PlaybackTracker {
  /** Feed every time update of the player (seconds). */
  update(currentTime: number, mediaDuration?: number | null): void;
  /** The last position seen (for saves on pause or when leaving). */
  readonly position: number;
  markCompleted(): void;
}

export function createPlaybackTracker(options: PlaybackTrackerOptions): PlaybackTracker {
  let completed = options.completed;
  let lastMark = Math.floor((options.startAt ?? 0) / POSITION_SAVE_EVERY_SEC);
  let position = options.startAt ?? 0;
  return {
    get position() {
      return position;
    },
    markCompleted() {
      completed = true;
    },
    update(currentTime, mediaDuration) {
      if (!Number.isFinite(currentTime) || currentTime < 0) return;
      position = currentTime;
      const mark = Math.floor(currentTime / POSITION_SAVE_EVERY_SEC);
      if (mark !== lastMark) {
        lastMark = mark;
        // Every 10-second mark crossed by playback (seeking backwards re-arms the earlier marks).
        if (mark > 0) options.onSave(currentTime);
      }
      if (!completed && reachedCompletion(currentTime, options.durationSec, mediaDuration)) {
        completed = true;
        options.onComplete();
      }
    },
  };
}

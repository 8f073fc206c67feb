import { describe, expect, it, vi } from 'vitest';
import { createPlaybackTracker, effectiveDuration, PLAYBACK_RATES, rateLabel, reachedCompletion, resumePosition } from './playback';

describe('the 90% rule', () => {
  it('completes at 90% of duration_sec', () => {
    expect(reachedCompletion(539, 600)).toBe(false);
    expect(reachedCompletion(540, 600)).toBe(true);
  });
  it("uses the media's duration only when duration_sec is unset", () => {
    expect(effectiveDuration(600, 30)).toBe(600);
    expect(effectiveDuration(0, 30)).toBe(30);
    expect(reachedCompletion(27, 0, 30)).toBe(true);
    expect(reachedCompletion(27, 0, Number.NaN)).toBe(false);
  });
});

describe('resumePosition', () => {
  it('resumes at the saved position, or from the start at the very end', () => {
    expect(resumePosition(0, 100)).toBe(0);
    expect(resumePosition(42, 100)).toBe(42);
    expect(resumePosition(42, undefined)).toBe(42);
    expect(resumePosition(99.8, 100)).toBe(0);
  });
});

describe('createPlaybackTracker', () => {
  function run(times: number[], opts: { durationSec?: number; completed?: boolean; startAt?: number } = {}) {
    const onSave = vi.fn();
    const onComplete = vi.fn();
    const t = createPlaybackTracker({ durationSec: opts.durationSec ?? 100, completed: opts.completed ?? false, startAt: opts.startAt, onSave, onComplete });
    for (const x of times) t.update(x);
    return { onSave, onComplete, tracker: t };
  }

  it('saves once per 10 seconds of playback', () => {
    const { onSave } = run([0, 0.25, 3, 9.9, 10.1, 10.4, 15, 19.9, 20.2, 25]);
    expect(onSave.mock.calls.map((c) => c[0])).toEqual([10.1, 20.2]);
  });
  it('does not save at the resume point, only at the next mark', () => {
    const { onSave } = run([25, 26, 29, 30.3], { startAt: 25 });
    expect(onSave.mock.calls.map((c) => c[0])).toEqual([30.3]);
  });
  it('completes once when playback reaches 90%, never when already completed', () => {
    expect(run([50, 89, 90, 95, 99]).onComplete).toHaveBeenCalledTimes(1);
    expect(run([95], { completed: true }).onComplete).not.toHaveBeenCalled();
  });
  it('ignores garbage times and remembers the last position', () => {
    const { tracker, onSave } = run([12, Number.NaN, -1]);
    expect(tracker.position).toBe(12);
    expect(onSave).toHaveBeenCalledTimes(1);
  });
});

describe('rateLabel', () => {
  it('writes a speed as the menu shows it, with a decimal comma', () => {
    expect(PLAYBACK_RATES.map(rateLabel)).toEqual(['0,5x', '0,75x', '1x', '1,25x', '1,5x', '1,75x', '2x']);
  });
});

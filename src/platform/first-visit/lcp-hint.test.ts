import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  forgetLcpFrames,
  LCP_FRAME_KEY,
  LCP_HINTS_KEY,
  LCP_SHELL_ID,
  rememberLcpFrame,
  rememberLcpImage,
  removeLcpShell,
  type LcpFrames,
  type LcpHint,
} from './lcp-hint';

const hints = () => JSON.parse(localStorage.getItem(LCP_HINTS_KEY) ?? '{}') as Record<string, LcpHint>;

/** An image laid out at this rect (jsdom lays nothing out). */
function paintedImage(
  rect: { top: number; left: number; width: number; height: number },
  style = 'object-fit: cover; object-position: 30% 70%',
) {
  const img = document.createElement('img');
  img.setAttribute('style', style);
  img.getBoundingClientRect = () =>
    DOMRect.fromRect({ x: rect.left, y: rect.top, width: rect.width, height: rect.height });
  document.body.append(img);
  return img;
}

afterEach(() => {
  localStorage.clear();
  document.body.innerHTML = '';
  window.scrollTo(0, 0);
});

describe('rememberLcpImage', () => {
  it('keeps where the image was painted, in the document, exactly, with the viewport width and the account', () => {
    const img = paintedImage({ top: 57, left: 0, width: 412, height: 208.33333 });
    rememberLcpImage(img, 'a.jpg?width=480 480w', '100vw', 'user-1');
    expect(hints()['/']).toEqual([
      'a.jpg?width=480 480w',
      '100vw',
      [window.innerWidth, 57, 0, 412, 208.33, 'cover', '30% 70%', expect.any(String), expect.any(String)],
      'user-1',
    ]);
  });

  it('an image not laid out (hidden) is remembered without a place: the next visit only preloads it', () => {
    rememberLcpImage(paintedImage({ top: 0, left: 0, width: 0, height: 0 }), 'a.jpg 480w', '100vw', null);
    expect(hints()['/']).toEqual(['a.jpg 480w', '100vw', null]); // and signed out: no account
  });

  it('keeps the 20 most recent paths', () => {
    const img = paintedImage({ top: 0, left: 0, width: 10, height: 10 });
    for (let i = 0; i < 25; i++) {
      window.history.replaceState(null, '', `/course/${i}`);
      rememberLcpImage(img, `${i}.jpg 480w`, '100vw', null);
    }
    window.history.replaceState(null, '', '/');
    expect(Object.keys(hints())).toEqual(Array.from({ length: 20 }, (_, i) => `/course/${i + 5}`));
  });
});

/** A video showing a 1280×720 frame in a 412 px wide box; jsdom decodes nothing and draws nothing. */
function playingVideo(drawn: string[]) {
  const video = document.createElement('video');
  Object.defineProperties(video, {
    readyState: { value: 2 },
    videoWidth: { value: 1280 },
    videoHeight: { value: 720 },
  });
  video.getBoundingClientRect = () => DOMRect.fromRect({ x: 0, y: 57, width: 412, height: 231.75 });
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(function (this: HTMLCanvasElement) {
    return { drawImage: () => drawn.push(`${this.width}x${this.height}`) } as unknown as CanvasRenderingContext2D;
  });
  vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockReturnValue('data:image/jpeg;base64,AAAA');
  const frame = document.createElement('div');
  frame.style.borderRadius = '12px';
  frame.append(video);
  document.body.append(frame);
  return { video, frame };
}

describe('rememberLcpFrame', () => {
  afterEach(() => vi.restoreAllMocks());

  it('keeps the frame at the width it is painted, per account and path, with its place and rounding', () => {
    const drawn: string[] = [];
    const { video, frame } = playingVideo(drawn);
    window.history.replaceState(null, '', '/course/c/lesson/l');
    rememberLcpFrame(video, 'user-1', frame);
    expect(drawn).toEqual(['412x232']);
    const kept = JSON.parse(localStorage.getItem(`${LCP_FRAME_KEY}user-1:/course/c/lesson/l`)!) as LcpFrames;
    expect(Object.keys(kept)).toEqual([String(window.innerWidth)]);
    const [src, box] = kept[window.innerWidth]!;
    expect(src).toBe('data:image/jpeg;base64,AAAA');
    expect(box).toEqual([
      window.innerWidth,
      57,
      0,
      412,
      231.75,
      expect.any(String),
      expect.any(String),
      '12px',
      expect.any(String),
    ]);
    window.history.replaceState(null, '', '/');
  });

  it('keeps the 3 latest lessons, and nothing of a video without a frame yet', () => {
    const { video } = playingVideo([]);
    for (let i = 0; i < 5; i++) {
      vi.spyOn(Date, 'now').mockReturnValue(1_000 + i);
      window.history.replaceState(null, '', `/course/c/lesson/${i}`);
      rememberLcpFrame(video, 'user-1');
    }
    window.history.replaceState(null, '', '/');
    const keys = Object.keys(localStorage).filter((k) => k.startsWith(LCP_FRAME_KEY));
    expect(keys.sort()).toEqual([2, 3, 4].map((i) => `${LCP_FRAME_KEY}user-1:/course/c/lesson/${i}`));

    const empty = document.createElement('video'); // readyState 0: nothing decoded
    rememberLcpFrame(empty, 'user-2');
    expect(Object.keys(localStorage).some((k) => k.includes('user-2'))).toBe(false);
  });

  it('keeps the two latest screen widths of a lesson (a phone turned)', () => {
    const { video } = playingVideo([]);
    for (const [i, width] of [360, 412, 800].entries()) {
      vi.spyOn(Date, 'now').mockReturnValue(1_000 + i);
      Object.defineProperty(window, 'innerWidth', { value: width, configurable: true });
      rememberLcpFrame(video, 'user-1');
    }
    Object.defineProperty(window, 'innerWidth', { value: 1024, configurable: true });
    expect(Object.keys(JSON.parse(localStorage.getItem(`${LCP_FRAME_KEY}user-1:/`)!) as LcpFrames).sort()).toEqual([
      '412',
      '800',
    ]);
  });

  it('signing out forgets every frame, and only them', () => {
    localStorage.setItem(`${LCP_FRAME_KEY}user-1:/a`, '[]');
    localStorage.setItem(`${LCP_FRAME_KEY}user-2:/b`, '[]');
    localStorage.setItem(LCP_HINTS_KEY, '{}');
    forgetLcpFrames();
    expect(Object.keys(localStorage)).toEqual([LCP_HINTS_KEY]);
  });
});

describe('removeLcpShell', () => {
  it('takes the early copy away, and does nothing when there is none', () => {
    const shell = document.createElement('img');
    shell.id = LCP_SHELL_ID;
    document.documentElement.append(shell);
    removeLcpShell();
    expect(document.getElementById(LCP_SHELL_ID)).toBeNull();
    expect(() => removeLcpShell()).not.toThrow();
  });
});

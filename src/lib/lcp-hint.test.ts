import { afterEach, describe, expect, it } from 'vitest';
import { LCP_HINTS_KEY, LCP_SHELL_ID, rememberLcpImage, removeLcpShell, type LcpHint } from './lcp-hint';

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
  it('keeps where the image was painted, in the document, exactly, with the viewport width', () => {
    const img = paintedImage({ top: 57, left: 0, width: 412, height: 208.33333 });
    rememberLcpImage(img, 'a.jpg?width=480 480w', '100vw');
    expect(hints()['/']).toEqual([
      'a.jpg?width=480 480w',
      '100vw',
      [window.innerWidth, 57, 0, 412, 208.33, 'cover', '30% 70%'],
    ]);
  });

  it('an image not laid out (hidden) is remembered without a place: the next visit only preloads it', () => {
    rememberLcpImage(paintedImage({ top: 0, left: 0, width: 0, height: 0 }), 'a.jpg 480w', '100vw');
    expect(hints()['/']).toEqual(['a.jpg 480w', '100vw']);
  });

  it('keeps the 20 most recent paths', () => {
    const img = paintedImage({ top: 0, left: 0, width: 10, height: 10 });
    for (let i = 0; i < 25; i++) {
      window.history.replaceState(null, '', `/course/${i}`);
      rememberLcpImage(img, `${i}.jpg 480w`, '100vw');
    }
    window.history.replaceState(null, '', '/');
    expect(Object.keys(hints())).toEqual(Array.from({ length: 20 }, (_, i) => `/course/${i + 5}`));
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

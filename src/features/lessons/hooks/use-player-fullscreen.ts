// Full screen for the lesson's player (issue 39): the browser shows only the element that went full
// screen, so the video's or an embedded player's own full screen would leave the watermark behind.
// The container (player, watermark and controls) goes full screen instead, and a guard takes any other
// element inside it out of full screen at once and asks for the container (the browser may refuse that
// without a fresh click: then the page simply stays as it was, watermark included).
import { useCallback, useEffect, useState, type RefObject } from 'react';

export function usePlayerFullscreen(container: RefObject<HTMLElement | null>) {
  const [active, setActive] = useState(false);
  useEffect(() => {
    const onChange = () => {
      const element = document.fullscreenElement;
      const box = container.current;
      setActive(!!box && element === box);
      if (!box || !element || element === box || !box.contains(element)) return;
      void document
        .exitFullscreen()
        .then(() => box.requestFullscreen())
        .catch(() => undefined);
    };
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, [container]);
  const toggle = useCallback(() => {
    const box = container.current;
    if (!box) return;
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void box.requestFullscreen?.().catch(() => undefined);
  }, [container]);
  return { active, toggle, supported: !!document.fullscreenEnabled };
}

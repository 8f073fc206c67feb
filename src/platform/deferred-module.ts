// Code a screen shows only on request (a menu's or a popover's open content and its Radix machinery)
// loads once the page has settled (the first visit's whenPageSettled), or as soon as the person reaches for it
// (`request`: pointer over, focus, click), whichever comes first. Until then the screen draws a
// look-alike trigger of its own. Not part of the first-visit module's door: that door is on the first
// route, and this is needed only by the menus' chunks.
import { useCallback, useEffect, useState } from 'react';
import { whenPageSettled } from './first-visit';

const loaded = new Map<() => Promise<unknown>, unknown>();
const loading = new Map<() => Promise<unknown>, Promise<unknown>>();

function start<T>(load: () => Promise<T>): Promise<T> {
  let promise = loading.get(load) as Promise<T> | undefined;
  if (!promise) {
    promise = load().then((module) => {
      loaded.set(load, module);
      return module;
    });
    // A failed download is tried again on the next request.
    promise.catch(() => loading.delete(load));
    loading.set(load, promise);
  }
  return promise;
}

/** `module` is null until `load` (a module-level constant) has resolved. */
export function useDeferredModule<T>(load: () => Promise<T>): { module: T | null; request: () => void } {
  const [module, setModule] = useState<T | null>(() => (loaded.get(load) as T | undefined) ?? null);
  const [requested, setRequested] = useState(false);
  useEffect(() => {
    if (module) return;
    let live = true;
    const take = () =>
      void start(load).then(
        (m) => live && setModule(() => m),
        () => undefined,
      );
    const cancel = requested ? (take(), () => undefined) : whenPageSettled(take);
    return () => {
      live = false;
      cancel();
    };
  }, [load, module, requested]);
  const request = useCallback(() => setRequested(true), []);
  return { module, request };
}

/** How the real menu starts (the props its component takes from `useDeferredTrigger().initial`). */
export interface DeferredTriggerStart {
  /** Clicked before this code had loaded: open at once. */
  defaultOpen: boolean;
  /** The look-alike trigger had the focus: the real one takes it over. */
  autoFocus: boolean;
}

/**
 * A menu or popover whose code is deferred: the props of its look-alike trigger (a pointer over or
 * focus on it starts the download; a click opens it as soon as the code is there), and how the real
 * one starts (open if clicked; focused if the look-alike had the focus).
 *
 * While the look-alike is pressed the real one waits: a button swapped between pointerdown and
 * pointerup gets no click at all (Chromium sends it nowhere), so the press would be lost.
 */
export function useDeferredTrigger<T>(load: () => Promise<T>) {
  const { module, request } = useDeferredModule(load);
  const [openWhenLoaded, setOpenWhenLoaded] = useState(false);
  const [focused, setFocused] = useState(false);
  const [pressed, setPressed] = useState(false);
  return {
    module: pressed ? null : module,
    initial: { defaultOpen: openWhenLoaded, autoFocus: focused } satisfies DeferredTriggerStart,
    placeholderProps: {
      'aria-expanded': false,
      onPointerEnter: request,
      onPointerDown: () => {
        setPressed(true);
        request();
      },
      // A press that ends elsewhere (dragged off, or a scroll took it) releases the swap too. A touch
      // leaves after its pointerup but before its click: that one is still a press.
      onPointerCancel: () => setPressed(false),
      onPointerLeave: (event: { buttons: number }) => {
        if (event.buttons !== 0) setPressed(false);
      },
      onFocus: () => {
        setFocused(true);
        request();
      },
      onBlur: () => setFocused(false),
      onClick: () => {
        setPressed(false);
        setOpenWhenLoaded(true);
        request();
      },
    },
  };
}

// The app's toasts (eslint keeps 'sonner' out of every other module): sonner is loaded on the first
// toast, or when the browser is idle after the page loaded, so it is never on a page's critical
// download, and a toast raised before the <Toaster> is there waits for it instead of being lost.
type Sonner = typeof import('sonner');
type Options = Parameters<Sonner['toast']['success']>[1];

let sonner: Promise<Sonner> | null = null;
export const loadSonner = (): Promise<Sonner> => (sonner ??= import('sonner'));

// sonner drops a toast raised before its <Toaster> subscribed, so each toast waits for the mount.
let markMounted: () => void = () => undefined;
let toasterMounted = new Promise<void>((resolve) => (markMounted = resolve));
let mountRequested = false;
let onRequest: (() => void) | null = null;

/** Asks the app's <Toaster> (src/app/providers.tsx) to mount now rather than when idle. */
function requestToaster(): void {
  mountRequested = true;
  onRequest?.();
}

/** For the providers: `mount` runs when a toast or a screen needs the toaster. */
export function whenToasterRequested(mount: () => void): () => void {
  onRequest = mount;
  if (mountRequested) mount();
  return () => {
    onRequest = null;
  };
}

/** For the providers: the <Toaster> has subscribed (waiting toasts show) until the returned cleanup. */
export function toasterReady(): () => void {
  markMounted();
  return () => {
    toasterMounted = new Promise<void>((resolve) => (markMounted = resolve));
  };
}

type Args = [message: string, options?: Options];

function show(kind: 'success' | 'error' | 'info' | 'message', args: Args): void {
  requestToaster();
  void Promise.all([loadSonner(), toasterMounted]).then(([m]) => m.toast[kind](...args));
}

export const toast = {
  success: (...args: Args) => show('success', args),
  error: (...args: Args) => show('error', args),
  info: (...args: Args) => show('info', args),
  /** A plain toast, without an icon. */
  message: (...args: Args) => show('message', args),
};

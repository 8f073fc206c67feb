// Toasts for code on the first route (sign-in, the session) and the student pages: sonner is loaded
// on the first toast, or when the lazily mounted <Toaster> loads right after the first paint, so it
// stays off those pages' critical download. Admin screens import `toast` from 'sonner' directly.
type Sonner = typeof import('sonner');
type Options = Parameters<Sonner['toast']['success']>[1];

let sonner: Promise<Sonner> | null = null;
export const loadSonner = (): Promise<Sonner> => (sonner ??= import('sonner'));

type Args = [message: string, options?: Options];

export const toast = {
  success: (...args: Args) => void loadSonner().then((m) => m.toast.success(...args)),
  error: (...args: Args) => void loadSonner().then((m) => m.toast.error(...args)),
  info: (...args: Args) => void loadSonner().then((m) => m.toast.info(...args)),
};

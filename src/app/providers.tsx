import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { ConnectionBanner } from '@/components/connection-banner';
import { queryClient } from '@/lib/query-client';
import { loadSonner, toasterReady, whenToasterRequested } from '@/lib/toast';
import { SessionProvider } from './session-provider';

const Toaster = lazy(() => loadSonner().then((m) => ({ default: m.Toaster })));

/** Its effect runs after the <Toaster> before it has subscribed (effects run in tree order). */
function ToasterMounted() {
  useEffect(toasterReady, []);
  return null;
}

/** sonner's <Toaster>, mounted once the page has loaded and the browser is idle, or at once when a
 * toast or a screen asks (src/lib/toast.ts): its download stays off the first paint's path. */
export function DeferredToaster() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    const mount = () => setMounted(true);
    const stopListening = whenToasterRequested(mount);
    let idle: number | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onLoad = () => {
      if (typeof window.requestIdleCallback === 'function') idle = window.requestIdleCallback(mount, { timeout: 3000 });
      else timer = setTimeout(mount, 1000);
    };
    if (document.readyState === 'complete') onLoad();
    else window.addEventListener('load', onLoad, { once: true });
    return () => {
      stopListening();
      window.removeEventListener('load', onLoad);
      if (idle !== undefined) window.cancelIdleCallback(idle);
      clearTimeout(timer);
    };
  }, []);
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster richColors position="top-right" closeButton />
      <ToasterMounted />
    </Suspense>
  );
}

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider>{children}</SessionProvider>
      <ConnectionBanner />
      <DeferredToaster />
    </QueryClientProvider>
  );
}

import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { ConnectionBanner } from '@/app/connection-banner';
import { queryClient } from '@/platform/query-client';
import { whenPageSettled } from '@/platform/first-visit';
import { loadSonner, toasterReady, whenToasterRequested } from '@/platform/toast';
import { SessionProvider } from './session-provider';

const Toaster = lazy(() => loadSonner().then((m) => ({ default: m.Toaster })));

/** Its effect runs after the <Toaster> before it has subscribed (effects run in tree order). */
function ToasterMounted() {
  useEffect(toasterReady, []);
  return null;
}

/** sonner's <Toaster>, mounted once the page has settled (src/platform/first-visit/page-settled.ts), or at once when a
 * toast or a screen asks (src/platform/toast.ts): its download stays off the first paint's path. */
export function DeferredToaster() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    const mount = () => setMounted(true);
    const stopListening = whenToasterRequested(mount);
    const cancel = whenPageSettled(mount);
    return () => {
      stopListening();
      cancel();
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

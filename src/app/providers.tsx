import { lazy, Suspense, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { ConnectionBanner } from '@/components/connection-banner';
import { queryClient } from '@/lib/query-client';
import { loadSonner } from '@/lib/toast';
import { SessionProvider } from './session-provider';

// Mounted at once but downloaded in parallel with the first paint (src/lib/toast.ts).
const Toaster = lazy(() => loadSonner().then((m) => ({ default: m.Toaster })));

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider>{children}</SessionProvider>
      <ConnectionBanner />
      <Suspense fallback={null}>
        <Toaster richColors position="top-right" closeButton />
      </Suspense>
    </QueryClientProvider>
  );
}

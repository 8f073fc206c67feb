import { WifiOff } from 'lucide-react';
import { useConnectionLost } from '@/platform/connection';

/** Shown while the API cannot be reached; the pages behind it keep retrying their reads. */
export function ConnectionBanner() {
  const lost = useConnectionLost();
  return (
    <div role="status" aria-live="polite" className="pointer-events-none fixed inset-x-0 bottom-4 z-[100] flex justify-center px-4">
      {lost && (
        <p className="flex max-w-md items-center gap-2 rounded-md bg-foreground px-4 py-3 text-sm font-medium text-background shadow-lg">
          <WifiOff className="size-4 shrink-0" aria-hidden="true" />
          Sem conexão com o servidor. Tentando de novo...
        </p>
      )}
    </div>
  );
}

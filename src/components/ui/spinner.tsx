import { Loader2 } from 'lucide-react';
import { cn } from '@/utils/cn';

export function Spinner({ className, label = 'Carregando...' }: { className?: string; label?: string }) {
  return (
    <span role="status" className="inline-flex items-center">
      <Loader2 aria-hidden="true" className={cn('size-6 animate-spin text-primary', className)} />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** Full-page centred spinner (session loading, lazy routes). */
export function PageSpinner() {
  return (
    <div className="flex min-h-[60vh] w-full items-center justify-center" data-testid="page-spinner">
      <Spinner className="size-10" />
    </div>
  );
}

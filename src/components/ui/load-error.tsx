import { Button } from './button';
import { EmptyState } from './empty-state';

/** The one way a screen says a read failed: what could not be loaded, and a retry. */
export function LoadError({ title, onRetry, className }: { title: string; onRetry: () => unknown; className?: string }) {
  return <EmptyState className={className} title={title} action={<Button onClick={() => void onRetry()}>Tentar novamente</Button>} />;
}

import type { ReactNode } from 'react';
import { cn } from '@/utils/cn';

/** Title row of an admin page: heading, optional description, actions on the right (wrapping on phones). */
export function PageHeader({ title, description, actions, className }: { title: ReactNode; description?: ReactNode; actions?: ReactNode; className?: string }) {
  return (
    <div className={cn('flex flex-wrap items-start justify-between gap-4', className)}>
      <div className="min-w-0">
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        {description && <p className="mt-1 text-sm text-muted-foreground">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}

/** Width and padding of every admin page. */
export function AdminPage({ children, className }: { children: ReactNode; className?: string }) {
  return <section className={cn('mx-auto grid w-full max-w-6xl gap-6 px-4 py-6 sm:px-6 sm:py-8', className)}>{children}</section>;
}

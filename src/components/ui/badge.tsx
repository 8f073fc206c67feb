import type { HTMLAttributes } from 'react';
import { cn } from '@/utils/cn';

export type BadgeVariant = 'default' | 'secondary' | 'outline' | 'success' | 'destructive' | 'warning';

const variants: Record<BadgeVariant, string> = {
  default: 'border-transparent bg-primary text-white',
  secondary: 'border-transparent bg-muted text-foreground',
  outline: 'border-border text-foreground',
  success: 'border-transparent bg-green-100 text-green-800',
  destructive: 'border-transparent bg-red-100 text-red-700',
  warning: 'border-transparent bg-amber-100 text-amber-800',
};

export function Badge({ className, variant = 'default', ...props }: HTMLAttributes<HTMLSpanElement> & { variant?: BadgeVariant }) {
  return (
    <span
      className={cn('inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-medium whitespace-nowrap', variants[variant], className)}
      {...props}
    />
  );
}

import type { HTMLAttributes } from 'react';
import { cn } from '@/utils/cn';

/** Grey pulsing block shown while data loads. */
export function Skeleton({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-lg bg-slate-200/80', className)} {...props} />;
}

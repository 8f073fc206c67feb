import { cn } from '@/utils/cn';
import { clampPercent } from '@/utils/format';

export interface ProgressBarProps {
  /** 0-100 */
  value: number;
  label?: string;
  className?: string;
  indicatorClassName?: string;
}

/** Horizontal progress bar (role="progressbar"). */
export function ProgressBar({ value, label = 'Progresso', className, indicatorClassName }: ProgressBarProps) {
  const pct = clampPercent(value);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct}
      className={cn('h-2 w-full overflow-hidden rounded-full bg-slate-200', className)}
    >
      <div className={cn('h-full rounded-full bg-primary transition-[width] duration-500', indicatorClassName)} style={{ width: `${pct}%` }} />
    </div>
  );
}

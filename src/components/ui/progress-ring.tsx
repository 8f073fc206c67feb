import { cn } from '@/utils/cn';
import { clampPercent } from '@/utils/format';

export interface ProgressRingProps {
  /** 0-100 */
  value: number;
  /** Diameter in px (default 48). */
  size?: number;
  strokeWidth?: number;
  className?: string;
  label?: string;
  showValue?: boolean;
}

/** Circular progress indicator (SVG) with the percent in the middle. */
export function ProgressRing({ value, size = 48, strokeWidth, className, label = 'Progresso do curso', showValue = true }: ProgressRingProps) {
  const pct = clampPercent(value);
  const stroke = strokeWidth ?? Math.max(3, Math.round(size / 12));
  const r = (size - stroke) / 2;
  const c = 2 * Math.PI * r;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct}
      className={cn('relative inline-flex shrink-0 items-center justify-center', className)}
      style={{ width: size, height: size }}
    >
      <svg width={size} height={size} viewBox={`0 0 ${size} ${size}`} className="-rotate-90" aria-hidden="true">
        <circle cx={size / 2} cy={size / 2} r={r} fill="none" strokeWidth={stroke} className="stroke-slate-200" />
        <circle
          cx={size / 2}
          cy={size / 2}
          r={r}
          fill="none"
          strokeWidth={stroke}
          strokeLinecap="round"
          strokeDasharray={c}
          strokeDashoffset={c - (pct / 100) * c}
          className="stroke-primary transition-[stroke-dashoffset] duration-500"
        />
      </svg>
      {showValue && (
        <span className="absolute font-semibold text-foreground" style={{ fontSize: Math.max(9, Math.round(size / 4.2)) }}>
          {pct}%
        </span>
      )}
    </div>
  );
}

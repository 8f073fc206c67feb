import { useState } from 'react';
import { Star } from 'lucide-react';
import { cn } from '@/utils/cn';

export interface StarRatingProps {
  /** Current rating 0-5 (0 = none). */
  value: number;
  onChange?: (rating: number) => void;
  readOnly?: boolean;
  disabled?: boolean;
  size?: number;
  label?: string;
  className?: string;
}

/** 1-5 stars: a radio group when editable, an image with a text label when read-only. */
export function StarRating({ value, onChange, readOnly, disabled, size = 22, label = 'Avaliação', className }: StarRatingProps) {
  const [hover, setHover] = useState(0);
  const shown = hover || value;
  if (readOnly || !onChange) {
    return (
      <div role="img" aria-label={`${label}: ${value} de 5`} className={cn('inline-flex items-center gap-0.5', className)}>
        {[1, 2, 3, 4, 5].map((n) => (
          <Star key={n} aria-hidden="true" style={{ width: size, height: size }} className={n <= Math.round(value) ? 'fill-amber-400 text-amber-400' : 'text-slate-300'} />
        ))}
      </div>
    );
  }
  return (
    <div role="radiogroup" aria-label={label} className={cn('inline-flex items-center gap-0.5', className)} onMouseLeave={() => setHover(0)}>
      {[1, 2, 3, 4, 5].map((n) => (
        <button
          key={n}
          type="button"
          role="radio"
          aria-checked={value === n}
          aria-label={`${n} ${n === 1 ? 'estrela' : 'estrelas'}`}
          disabled={disabled}
          onMouseEnter={() => setHover(n)}
          onFocus={() => setHover(n)}
          onBlur={() => setHover(0)}
          onClick={() => onChange(n)}
          className="cursor-pointer rounded p-0.5 transition-transform hover:scale-110 disabled:cursor-not-allowed disabled:opacity-60"
        >
          <Star aria-hidden="true" style={{ width: size, height: size }} className={n <= shown ? 'fill-amber-400 text-amber-400' : 'text-slate-300'} />
        </button>
      ))}
    </div>
  );
}

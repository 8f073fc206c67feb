import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { Crosshair, RotateCcw } from 'lucide-react';
import { Button } from './button';
import { CENTER, formatPosition, parsePosition, pointFromKey, pointFromPointer } from './image-position';

export interface ImagePositionPickerProps {
  src: string;
  /** 'X% Y%' */
  value: string;
  onChange: (value: string) => void;
  /** CSS aspect ratio of the frame the image is shown in, e.g. '16 / 9'. */
  aspect?: string;
  label?: string;
}

/**
 * Focal point of an image (SPEC §4 "Image position"): drag or click on the image, or use the arrow
 * keys (Shift for 10%), clamped to 0-100; 'Redefinir' returns to 50% 50%. Shows the framed result.
 */
export function ImagePositionPicker({ src, value, onChange, aspect = '16 / 9', label = 'Posição da imagem' }: ImagePositionPickerProps) {
  const boxRef = useRef<HTMLDivElement>(null);
  const point = parsePosition(value);
  const dragging = useRef(false);

  function moveTo(e: PointerEvent<HTMLDivElement>) {
    const box = boxRef.current?.getBoundingClientRect();
    if (box) onChange(formatPosition(pointFromPointer(e.clientX, e.clientY, box)));
  }

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const next = pointFromKey(point, e.key, e.shiftKey);
    if (!next) return;
    e.preventDefault();
    onChange(formatPosition(next));
  }

  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="text-sm font-medium">
          {label}: <span className="tabular-nums text-muted-foreground">{formatPosition(point)}</span>
        </span>
        <Button type="button" variant="outline" size="sm" onClick={() => onChange(formatPosition(CENTER))}>
          <RotateCcw aria-hidden="true" /> Redefinir
        </Button>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <div
          ref={boxRef}
          role="slider"
          tabIndex={0}
          aria-label={`${label} (arraste ou use as setas)`}
          aria-valuetext={`horizontal ${point.x}%, vertical ${point.y}%`}
          aria-valuenow={point.x}
          aria-valuemin={0}
          aria-valuemax={100}
          className="relative cursor-crosshair touch-none overflow-hidden rounded-lg border border-border bg-muted select-none focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
          onPointerDown={(e) => {
            dragging.current = true;
            e.currentTarget.setPointerCapture?.(e.pointerId);
            moveTo(e);
          }}
          onPointerMove={(e) => dragging.current && moveTo(e)}
          onPointerUp={() => (dragging.current = false)}
          onPointerCancel={() => (dragging.current = false)}
          onKeyDown={onKeyDown}
        >
          <img src={src} alt="" draggable={false} className="block h-auto max-h-64 w-full object-contain" />
          <span
            aria-hidden="true"
            className="pointer-events-none absolute flex size-7 -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full border-2 border-white bg-primary/80 text-white shadow-lg"
            style={{ left: `${point.x}%`, top: `${point.y}%` }}
          >
            <Crosshair className="size-4" />
          </span>
        </div>
        <div className="grid w-full max-w-xs content-start gap-1">
          <span className="text-xs text-muted-foreground">Como vai aparecer</span>
          <div className="overflow-hidden rounded-lg border border-border bg-muted" style={{ aspectRatio: aspect }}>
            <img src={src} alt="" className="size-full object-cover" style={{ objectPosition: formatPosition(point) }} />
          </div>
        </div>
      </div>
    </div>
  );
}

// The tooltip of a chart: a small dark label over the point that is hovered, tapped or focused. It
// sits inside the chart's box, leans left or right with its point and wraps at the box's width, so it
// never leaves the box (no horizontal scroll on a phone). Screen readers get the same words from the
// point itself (its name, or its text), so the tooltip is hidden from them.
import type { ReactNode } from 'react';

export function ChartTooltip({ x, y, width, children }: { x: number; y: number; width: number; children: ReactNode }) {
  // At the left edge the tooltip starts at its point; at the right edge it ends there.
  const lean = width > 0 ? Math.min(1, Math.max(0, x / width)) : 0.5;
  return (
    <div
      aria-hidden="true"
      className="pointer-events-none absolute z-10 rounded-md bg-foreground px-2 py-1 text-xs font-medium text-white shadow-md"
      style={{ left: x, top: y, width: 'max-content', maxWidth: width, transform: `translate(${-lean * 100}%, calc(-100% - 6px))` }}
    >
      {children}
    </div>
  );
}

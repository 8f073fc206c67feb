// Horizontal bars per item (a lesson): its title on one line, then one labelled bar per measure with
// its value written beside it ("Iniciaram ▇▇▇▇▇▇ 38"). Reads well on a phone: the title has the whole
// width and wraps nothing, and every bar carries its own label and number, so no colour has to be
// told apart (the funnel and the video retention of Reports). Plain HTML and CSS: no chart library.
//
// Hovering, tapping or focusing an item (Tab, then the arrow keys) shows its tooltip with the details.
import { useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { ChartTooltip } from './chart-tooltip';

export interface BarListBar {
  label: string;
  /** 0–1: the bar's length, a share of the whole. */
  share: number;
  /** The number written beside the bar. */
  text: string;
}

export interface BarListItem {
  key: string;
  title: string;
  /** Beside the title, smaller: "50 assistiram". */
  aside?: string;
  bars: BarListBar[];
  /** The details a hover, a tap or the focus shows. */
  tooltip: string;
}

export interface BarListProps {
  /** The list's name for screen readers. */
  label: string;
  items: BarListItem[];
  /** Widths of the bar labels' and the values' columns, so every item's bars line up. */
  labelWidth: string;
  valueWidth: string;
}

export function BarList({ label, items, labelWidth, valueWidth }: BarListProps) {
  const [active, setActive] = useState<{ index: number; x: number; width: number } | null>(null);
  const [focusable, setFocusable] = useState(0);
  const rows = useRef<(HTMLLIElement | null)[]>([]);

  const show = (index: number, e: MouseEvent<HTMLLIElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    setActive({ index, x: e.clientX - box.left, width: box.width });
  };
  const onKeyDown = (e: KeyboardEvent, i: number) => {
    const to = { ArrowDown: i + 1, ArrowRight: i + 1, ArrowUp: i - 1, ArrowLeft: i - 1, Home: 0, End: items.length - 1 }[e.key];
    if (to !== undefined) {
      e.preventDefault();
      const next = Math.min(items.length - 1, Math.max(0, to));
      setFocusable(next);
      rows.current[next]?.focus();
    } else if (e.key === 'Escape') setActive(null);
  };

  return (
    <ul aria-label={label} className="grid gap-1" onPointerLeave={(e) => e.pointerType === 'mouse' && setActive(null)}>
      {items.map((item, i) => (
        <li
          key={item.key}
          ref={(el) => {
            rows.current[i] = el;
          }}
          tabIndex={i === Math.min(focusable, items.length - 1) ? 0 : -1}
          className="relative grid gap-1 rounded-lg px-2 py-2 hover:bg-muted"
          onPointerEnter={(e) => show(i, e)}
          onClick={(e) => show(i, e)}
          onFocus={(e) => {
            setFocusable(i);
            const width = e.currentTarget.getBoundingClientRect().width;
            setActive({ index: i, x: width / 2, width });
          }}
          onBlur={() => setActive((a) => (a?.index === i ? null : a))}
          onKeyDown={(e) => onKeyDown(e, i)}
        >
          <div className="flex items-baseline justify-between gap-2">
            <p className="min-w-0 truncate text-sm font-medium" title={item.title}>
              {item.title}
            </p>
            {item.aside && <p className="shrink-0 text-xs text-muted-foreground">{item.aside}</p>}
          </div>
          {item.bars.map((bar) => (
            <div key={bar.label} className="grid items-center gap-2 text-xs" style={{ gridTemplateColumns: `${labelWidth} minmax(0, 1fr) ${valueWidth}` }}>
              <span className="text-muted-foreground">{bar.label}</span>
              <span className="h-2.5 overflow-hidden rounded-full bg-slate-200" aria-hidden="true">
                <span className="block h-full rounded-full bg-primary" style={{ width: `${Math.min(100, Math.max(0, bar.share * 100))}%` }} />
              </span>
              <span className="text-right tabular-nums">{bar.text}</span>
            </div>
          ))}
          {active?.index === i && (
            <ChartTooltip x={active.x} y={0} width={active.width}>
              {item.tooltip}
            </ChartTooltip>
          )}
        </li>
      ))}
    </ul>
  );
}

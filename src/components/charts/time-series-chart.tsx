// Bars per day, week or month (visx: scales, axes and bar shapes over plain SVG). Loaded lazily
// (./lazy-charts.tsx): the chart library is never in the first download of any route.
//
// Usable without a mouse: the bars are one stop of the Tab key (the latest bucket) and the arrow keys,
// Home and End move between them; a focused, hovered or tapped bar shows its tooltip, and each bar is
// named "26/11: 3 alunos" for screen readers. The width follows the card (no horizontal scroll at
// 360 px): the bucket labels thin out to what fits.
import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { BarRounded, Line } from '@visx/shape';
import { bucketLabel, type TimePoint, type TimeUnit } from './chart-format';
import { ChartTooltip } from './chart-tooltip';

export interface TimeSeriesChartProps {
  points: TimePoint[];
  unit: TimeUnit;
  /** The value as the tooltip says it: "3 alunos", "R$ 12,00". */
  valueText: (value: number) => string;
  /** The value on the vertical axis (short): "3", "R$ 1,2 mil". */
  tickText: (value: number) => string;
  /** The chart's name for screen readers (the card's title). */
  label: string;
  height?: number;
}

const MARGIN = { top: 12, bottom: 24 };
const TICK_FONT = 11;
/** Roughly the width of a character of the 11 px labels. */
const CHAR = 6.4;
/** jsdom (tests) measures nothing; a browser measures the card before the first paint. */
const FALLBACK_WIDTH = 600;

function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.getBoundingClientRect().width);
    const observer = new ResizeObserver(([entry]) => entry && setWidth(entry.contentRect.width));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width || FALLBACK_WIDTH] as const;
}

export default function TimeSeriesChart({
  points,
  unit,
  valueText,
  tickText,
  label,
  height = 200,
}: TimeSeriesChartProps) {
  const [ref, width] = useWidth();
  const [active, setActive] = useState<number | null>(null);
  const [focusable, setFocusable] = useState(points.length - 1);
  const columns = useRef<(SVGRectElement | null)[]>([]);

  const max = Math.max(1, ...points.map((p) => p.value));
  const y = scaleLinear<number>({ domain: [0, max], range: [height - MARGIN.top - MARGIN.bottom, 0], nice: true });
  const integers = points.every((p) => Number.isInteger(p.value));
  const yTicks = y.ticks(4).filter((t) => !integers || Number.isInteger(t));
  const left = Math.ceil(Math.max(...yTicks.map((t) => tickText(t).length)) * CHAR) + 10;
  // Room for half of the latest bucket's label, centred under its bar.
  const labelWidth = Math.max(...points.map((p) => bucketLabel(p.start, unit, { short: true }).length)) * CHAR + 10;
  const right = Math.ceil(labelWidth / 2);
  const innerWidth = Math.max(0, width - left - right);
  const innerHeight = height - MARGIN.top - MARGIN.bottom;
  const x = scaleBand<number>({
    domain: points.map((_, i) => i),
    range: [0, innerWidth],
    padding: points.length > 14 ? 0.25 : 0.35,
  });

  // Label every k-th bucket, counting back from the latest, so the labels never overlap.
  const every = Math.max(1, Math.ceil((points.length * labelWidth) / Math.max(1, innerWidth)));
  const xTicks = points.map((_, i) => i).filter((i) => (points.length - 1 - i) % every === 0);

  const nameOf = (i: number) => `${bucketLabel(points[i]!.start, unit)}: ${valueText(points[i]!.value)}`;
  const moveTo = (i: number) => {
    const next = Math.min(points.length - 1, Math.max(0, i));
    setFocusable(next);
    columns.current[next]?.focus();
  };
  const onKeyDown = (e: KeyboardEvent, i: number) => {
    const to = {
      ArrowRight: i + 1,
      ArrowUp: i + 1,
      ArrowLeft: i - 1,
      ArrowDown: i - 1,
      Home: 0,
      End: points.length - 1,
    }[e.key];
    if (to !== undefined) {
      e.preventDefault();
      moveTo(to);
    } else if (e.key === 'Escape') setActive(null);
  };

  // The bar the Tab key reaches: the last one focused, still there when the period has fewer buckets.
  const tabStop = Math.min(focusable, points.length - 1);
  const shown = active === null ? null : points[active];
  return (
    <div ref={ref} className="relative w-full" style={{ height }}>
      <svg
        width={width}
        height={height}
        role="group"
        aria-label={`${label}: gráfico de barras, ${points.length} barras. Use as setas para percorrer.`}
        onPointerLeave={(e) => e.pointerType === 'mouse' && setActive(null)}
        style={{ display: 'block', touchAction: 'pan-y' }}
      >
        <Group left={left} top={MARGIN.top}>
          {yTicks.map((t) => (
            <Line key={t} from={{ x: 0, y: y(t) }} to={{ x: innerWidth, y: y(t) }} stroke="var(--color-border)" />
          ))}
          {points.map((p, i) => {
            const bx = x(i) ?? 0;
            const barHeight = innerHeight - y(p.value);
            return (
              <g key={p.start}>
                {active === i && (
                  <rect
                    x={bx - (x.step() - x.bandwidth()) / 2}
                    y={0}
                    width={x.step()}
                    height={innerHeight}
                    fill="var(--color-muted)"
                  />
                )}
                {p.value > 0 && (
                  <BarRounded
                    x={bx}
                    y={y(p.value)}
                    width={x.bandwidth()}
                    height={barHeight}
                    radius={Math.min(3, x.bandwidth() / 2)}
                    top
                    fill="var(--color-primary)"
                  />
                )}
                {/* The whole column answers the pointer and the keyboard: a thin or empty bar is still easy to tap. */}
                <rect
                  ref={(el) => {
                    columns.current[i] = el;
                  }}
                  x={bx - (x.step() - x.bandwidth()) / 2}
                  y={0}
                  width={x.step()}
                  height={innerHeight}
                  fill="transparent"
                  role="img"
                  aria-label={nameOf(i)}
                  tabIndex={i === tabStop ? 0 : -1}
                  onPointerEnter={() => setActive(i)}
                  onClick={() => setActive(i)}
                  onFocus={() => {
                    setFocusable(i);
                    setActive(i);
                  }}
                  onBlur={() => setActive((a) => (a === i ? null : a))}
                  onKeyDown={(e) => onKeyDown(e, i)}
                />
              </g>
            );
          })}
          {/* The axes repeat what each bar's name says (and @visx/text draws each label as an <svg>, which
              screen readers would list as an image): hidden from them. */}
          <g aria-hidden="true">
            <AxisLeft
              scale={y}
              tickValues={yTicks}
              tickFormat={(v) => tickText(Number(v))}
              hideAxisLine
              hideTicks
              tickLength={0}
              tickLabelProps={{
                fill: 'var(--color-muted-foreground)',
                fontSize: TICK_FONT,
                fontFamily: 'inherit',
                textAnchor: 'end',
                dx: -6,
                dy: '0.33em',
              }}
            />
            <AxisBottom
              top={innerHeight}
              scale={x}
              tickValues={xTicks}
              tickFormat={(i) => bucketLabel(points[Number(i)]!.start, unit, { short: true })}
              stroke="var(--color-ring)"
              hideTicks
              tickLength={4}
              tickLabelProps={{
                fill: 'var(--color-muted-foreground)',
                fontSize: TICK_FONT,
                fontFamily: 'inherit',
                textAnchor: 'middle',
              }}
            />
          </g>
        </Group>
      </svg>
      {shown && active !== null && (
        <ChartTooltip
          x={left + (x(active) ?? 0) + x.bandwidth() / 2}
          y={MARGIN.top + Math.min(y(shown.value), innerHeight - 4)}
          width={width}
        >
          {nameOf(active)}
        </ChartTooltip>
      )}
    </div>
  );
}

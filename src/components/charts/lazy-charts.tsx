// The charts that draw with the chart library (visx), each loaded on first use: a screen that shows
// one downloads the library after its own code, and nothing else ever does (`npm run bench:bundle`).
import { lazy, Suspense } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import type { TimeSeriesChartProps } from './time-series-chart';

const LazyTimeSeries = lazy(() => import('./time-series-chart'));

/** Bars per day, week or month; a skeleton of its height while the library loads. */
export function TimeSeriesChart(props: TimeSeriesChartProps) {
  return (
    <Suspense fallback={<Skeleton style={{ height: props.height ?? 200 }} />}>
      <LazyTimeSeries {...props} />
    </Suspense>
  );
}

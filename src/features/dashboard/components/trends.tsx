// The dashboard's trends (issue 25): the period picker and the five charts. A chunk of its own, loaded
// after the counters' (./dashboard.tsx): the counters paint first, and the charts' code, with the chart
// library after it, follows.
import { DASHBOARD_CHARTS } from '../api/queries';
import { usePeriod } from '../hooks/use-period';
import { PeriodPicker } from './period-picker';
import { TrendChart } from './trend-chart';

export default function Trends({ schoolId }: { schoolId: string }) {
  const [period, setPeriod] = usePeriod();
  return (
    <section aria-labelledby="trends-title" className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="trends-title" className="text-lg font-semibold">
          Tendências
        </h2>
        <PeriodPicker value={period} onChange={setPeriod} />
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        {DASHBOARD_CHARTS.map((chart) => (
          <TrendChart key={chart} schoolId={schoolId} chart={chart} period={period} className={chart === 'revenue' ? 'lg:col-span-2' : undefined} />
        ))}
      </div>
    </section>
  );
}

// The dashboard's period (issue 25) lives in the URL (?periodo=7d) like the lists' filters; 30 days,
// the default, is shown without it.
import { useListParams } from '@/utils/list-params';
import { CHART_PERIODS, type ChartPeriod } from '../api/queries';

export const PERIOD_PARAM = 'periodo';
export const DEFAULT_PERIOD: ChartPeriod = '30d';

/** The picker's words; "90 dias" is 13 whole weeks from a Monday (docs/analytics.md), as its summary says. */
export const PERIOD_LABELS: Record<ChartPeriod, string> = { '7d': '7 dias', '30d': '30 dias', '90d': '90 dias', '12m': '12 meses' };
/** "nos últimos 30 dias", for the summaries. */
export const PERIOD_TEXT: Record<ChartPeriod, string> = { '7d': 'nos últimos 7 dias', '30d': 'nos últimos 30 dias', '90d': 'nas últimas 13 semanas', '12m': 'nos últimos 12 meses' };

const isPeriod = (v: string): v is ChartPeriod => (CHART_PERIODS as readonly string[]).includes(v);

/** The period of the URL (an unknown value reads as the default) and its setter. */
export function usePeriod(): [ChartPeriod, (period: ChartPeriod) => void] {
  const { filter, setFilter } = useListParams();
  const value = filter(PERIOD_PARAM);
  return [isPeriod(value) ? value : DEFAULT_PERIOD, (p) => setFilter(PERIOD_PARAM, p === DEFAULT_PERIOD ? '' : p)];
}

// pt-BR texts of the charts: bucket labels ("26/11", "semana de 24/11", "nov/2026"), the change
// against the previous period ("+12% vs. período anterior") and the numbers. No chart library here:
// the card, the table and the CSV use these too.

/** The empty state of a chart with nothing to draw. */
export const NO_DATA = 'Ainda não há dados neste período';

/** The bucket of a time series: a day, an ISO week (from Monday) or a month. */
export type TimeUnit = 'day' | 'week' | 'month';

/** One bucket: its first day (yyyy-mm-dd, a calendar date in São Paulo) and its value. */
export interface TimePoint {
  start: string;
  value: number;
}

let month: Intl.DateTimeFormat | undefined;
let integer: Intl.NumberFormat | undefined;
let percent: Intl.NumberFormat | undefined;

/** 'yyyy-mm-dd' → its parts; the date is a calendar day, so no time zone may move it. */
function parts(day: string): [year: number, month: number, day: number] {
  const [y, m, d] = day.split('-').map(Number);
  return [y ?? 0, m ?? 1, d ?? 1];
}

const two = (n: number) => String(n).padStart(2, '0');

/** "26/11" for a day, "semana de 24/11" for a week ("24/11" with `short`), "nov/2026" for a month. */
export function bucketLabel(start: string, unit: TimeUnit, { short = false } = {}): string {
  const [y, m, d] = parts(start);
  if (unit === 'month') {
    month ??= new Intl.DateTimeFormat('pt-BR', { month: 'short', timeZone: 'UTC' });
    const name = month.format(new Date(Date.UTC(y, m - 1, 1))).replace('.', '');
    return short ? name : `${name}/${y}`;
  }
  const dayMonth = `${two(d)}/${two(m)}`;
  return unit === 'week' && !short ? `semana de ${dayMonth}` : dayMonth;
}

/** The column header of a series' buckets. */
export const UNIT_HEADER: Record<TimeUnit, string> = { day: 'Dia', week: 'Semana', month: 'Mês' };

/** 1234 → "1.234". */
export function formatCount(value: number): string {
  integer ??= new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 });
  return integer.format(value);
}

/** 0.125 → "13%" (a share, 0–1). */
export function formatShare(share: number): string {
  percent ??= new Intl.NumberFormat('pt-BR', { style: 'percent', maximumFractionDigits: 0 });
  return percent.format(share);
}

/**
 * The change of `total` against `previous`: "+12%", "-5%", "0%"; "—" when the previous period had
 * nothing (no percentage of zero).
 */
export function changePercent(total: number, previous: number): string {
  if (!previous) return '—';
  const change = (total - previous) / previous;
  return new Intl.NumberFormat('pt-BR', { style: 'percent', maximumFractionDigits: 0, signDisplay: 'exceptZero' }).format(change);
}

/** "+12% vs. período anterior". */
export function changeText(total: number, previous: number): string {
  return `${changePercent(total, previous)} vs. período anterior`;
}

/** A spreadsheet-friendly number for the CSV: no thousands separator, a decimal comma (Excel in pt-BR). */
export function csvNumber(value: number, decimals = 0): string {
  return value.toFixed(decimals).replace('.', ',');
}

/**
 * A time series in words, for screen readers: "Novos alunos: 42 nos últimos 30 dias; +12% vs. período
 * anterior (37); maior valor em 26/11: 8 novos alunos."
 */
export function seriesSummary({ title, points, unit, total, period, change, valueText }: { title: string; points: TimePoint[]; unit: TimeUnit; total: string; period: string; change?: string; valueText: (value: number) => string }): string {
  const peak = points.reduce<TimePoint | undefined>((best, p) => (!best || p.value > best.value ? p : best), undefined);
  const parts = [`${title}: ${total} ${period}`];
  if (change) parts.push(change);
  if (peak && peak.value > 0) parts.push(`maior valor em ${bucketLabel(peak.start, unit)}: ${valueText(peak.value)}`);
  return `${parts.join('; ')}.`;
}

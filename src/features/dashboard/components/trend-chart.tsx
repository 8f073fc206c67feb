// One trend of the dashboard (issue 25): bars per day, week or month of the period, its total and the
// change against the previous period, in the shared chart card (table, CSV, summary, states).
import { bucketLabel, changeText, csvNumber, formatCount, seriesSummary, UNIT_HEADER, type TimePoint } from '@/components/charts/chart-format';
import { ChartCard, type ChartColumn } from '@/components/charts/chart-card';
import { TimeSeriesChart } from '@/components/charts/lazy-charts';
import { formatDate, formatMoney } from '@/utils/format';
import { useDashboardChart, useRecoveredRevenue } from '../api/hooks';
import type { ChartPeriod, DashboardChart } from '../api/queries';
import { PERIOD_TEXT } from '../hooks/use-period';

interface ChartSpec {
  title: string;
  description: string;
  /** Singular and plural of what a bar counts ("1 novo aluno", "3 novos alunos"); none for money. */
  noun?: [string, string];
  file: string;
}

const TREND_CHARTS: Record<DashboardChart, ChartSpec> = {
  new_students: { title: 'Novos alunos', description: 'contas de alunos criadas', noun: ['novo aluno', 'novos alunos'], file: 'novos-alunos' },
  new_enrollments: { title: 'Novas matrículas', description: 'matrículas criadas nos cursos', noun: ['nova matrícula', 'novas matrículas'], file: 'novas-matriculas' },
  active_students: { title: 'Alunos ativos', description: 'entraram ou estudaram; o total conta cada aluno uma vez', noun: ['aluno ativo', 'alunos ativos'], file: 'alunos-ativos' },
  lessons_completed: { title: 'Aulas concluídas', description: 'aulas marcadas como concluídas pelos alunos', noun: ['aula concluída', 'aulas concluídas'], file: 'aulas-concluidas' },
  revenue: { title: 'Receita', description: 'pagamentos confirmados, líquida de reembolsos', file: 'receita' },
};

let compactMoney: Intl.NumberFormat | undefined;

export function TrendChart({ schoolId, chart, period, className }: { schoolId: string; chart: DashboardChart; period: ChartPeriod; className?: string }) {
  const spec = TREND_CHARTS[chart];
  const query = useDashboardChart(schoolId, chart, period);
  const series = query.data;
  const money = !spec.noun;
  const amount = (v: number) => (money ? formatMoney(v) : formatCount(v));
  const valueText = (v: number) => (spec.noun ? `${formatCount(v)} ${v === 1 ? spec.noun[0] : spec.noun[1]}` : formatMoney(v));
  const tickText = (v: number) => {
    if (!money) return formatCount(v);
    compactMoney ??= new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL', notation: 'compact', maximumFractionDigits: 1 });
    return compactMoney.format(v).replace(/\u00a0/g, ' ');
  };
  const unit = series?.unit ?? 'day';
  const columns: ChartColumn<TimePoint>[] = [
    {
      header: UNIT_HEADER[unit],
      cell: (p) => bucketLabel(p.start, unit),
      // The year too, for a spreadsheet: the week's Monday or the day; the month as the table says it.
      csv: (p) => (unit === 'month' ? bucketLabel(p.start, unit) : formatDate(`${p.start}T12:00:00Z`)),
    },
    { header: money ? `${spec.title} (R$)` : spec.title, cell: (p) => amount(p.value), csv: (p) => csvNumber(p.value, money ? 2 : 0), numeric: true },
  ];
  const change = series ? changeText(series.total, series.previous_total) : undefined;
  // Beside the revenue, what Recuperação brought back in the same period (issue 41).
  const recovered = useRecoveredRevenue(chart === 'revenue' ? schoolId : null, series);
  return (
    <ChartCard
      className={className}
      title={spec.title}
      description={spec.description}
      query={query}
      loadErrorTitle="Não foi possível carregar o gráfico"
      rows={series?.points ?? []}
      rowKey={(p) => p.start}
      columns={columns}
      empty={!!series && series.points.every((p) => p.value === 0)}
      total={series ? amount(series.total) : ''}
      change={change}
      summary={
        series &&
        seriesSummary({ title: spec.title, points: series.points, unit, total: amount(series.total), period: PERIOD_TEXT[period], change: `${change}, que teve ${amount(series.previous_total)}`, valueText })
      }
      csvFile={`${spec.file}-${period}`}
      note={
        recovered.data !== undefined && (
          <p className="text-sm text-muted-foreground">
            Recuperado: <span className="font-medium text-foreground tabular-nums">{formatMoney(recovered.data)}</span> em vendas recuperadas (Recuperação)
          </p>
        )
      }
    >
      {series && <TimeSeriesChart points={series.points} unit={unit} valueText={valueText} tickText={tickText} label={spec.title} />}
    </ChartCard>
  );
}

// Reports → Aulas do curso (issue 25): where students stop in a course. The completion funnel (per
// lesson, the enrolled students who started it and who completed it) and the video retention (per
// lesson with a video, the share of its viewers who reached 25 / 50 / 75 / 90% of it), as labelled
// horizontal bars that read on a phone, in the shared chart card (table, CSV, summary, states).
import { BarList, type BarListItem } from '@/components/charts/bar-list';
import { ChartCard, type ChartColumn } from '@/components/charts/chart-card';
import { csvNumber, formatCount, formatShare } from '@/components/charts/chart-format';
import { useCourseFunnel, useVideoRetention } from '../api/hooks';
import type { FunnelRow, RetentionRow } from '../api/queries';

const share = (part: number, whole: number) => (whole > 0 ? part / whole : 0);
/** "38 (76%)": a count and its share of the whole. */
const countShare = (part: number, whole: number) => `${formatCount(part)} (${formatShare(share(part, whole))})`;
const lessonName = (r: { position: number; lesson_title: string }) => `${r.position}. ${r.lesson_title}`;

function funnelSummary(rows: FunnelRow[]): string {
  const enrolled = rows[0]?.enrolled ?? 0;
  const first = rows[0]!;
  const last = rows[rows.length - 1]!;
  const parts = [
    `Funil de conclusão: ${rows.length} ${rows.length === 1 ? 'aula' : 'aulas'} e ${formatCount(enrolled)} ${enrolled === 1 ? 'aluno matriculado' : 'alunos matriculados'}`,
    `a primeira aula foi iniciada por ${countShare(first.started, enrolled)} e concluída por ${countShare(first.completed, enrolled)}`,
  ];
  if (rows.length > 1) parts.push(`a última, ${lessonName(last)}, foi concluída por ${countShare(last.completed, enrolled)}`);
  // Where students stop: the largest fall in completions from one lesson to the next.
  let drop = { at: -1, size: 0 };
  rows.forEach((r, i) => {
    const size = i > 0 ? rows[i - 1]!.completed - r.completed : 0;
    if (size > drop.size) drop = { at: i, size };
  });
  if (drop.at > 0) {
    const [from, to] = [rows[drop.at - 1]!, rows[drop.at]!];
    parts.push(`a maior queda de conclusões é da aula ${from.position} para a aula ${to.position}, ${lessonName(to)}: de ${formatCount(from.completed)} para ${formatCount(to.completed)}`);
  }
  return `${parts.join('; ')}.`;
}

const FUNNEL_COLUMNS: ChartColumn<FunnelRow>[] = [
  { header: 'Aula', cell: lessonName },
  // The module is in the tooltip and the CSV; the table stays narrow enough for a phone.
  { header: 'Módulo', cell: (r) => r.module_title, only: 'csv' },
  { header: 'Matriculados', cell: (r) => formatCount(r.enrolled), csv: (r) => String(r.enrolled), numeric: true, only: 'csv' },
  { header: 'Iniciaram', cell: (r) => countShare(r.started, r.enrolled), csv: (r) => String(r.started), numeric: true },
  { header: 'Concluíram', cell: (r) => countShare(r.completed, r.enrolled), csv: (r) => String(r.completed), numeric: true },
  { header: 'Iniciaram (%)', cell: (r) => csvNumber(share(r.started, r.enrolled) * 100, 1), only: 'csv' },
  { header: 'Concluíram (%)', cell: (r) => csvNumber(share(r.completed, r.enrolled) * 100, 1), only: 'csv' },
];

export function FunnelChart({ courseId, turmaId = null, csvFile }: { courseId: string; turmaId?: string | null; csvFile: string }) {
  const query = useCourseFunnel(courseId, turmaId);
  const rows = query.data ?? [];
  const enrolled = rows[0]?.enrolled ?? 0;
  const items: BarListItem[] = rows.map((r) => ({
    key: r.lesson_id,
    title: lessonName(r),
    bars: [
      { label: 'Iniciaram', share: share(r.started, r.enrolled), text: formatCount(r.started) },
      { label: 'Concluíram', share: share(r.completed, r.enrolled), text: formatCount(r.completed) },
    ],
    tooltip: `${r.module_title} · Iniciaram: ${formatCount(r.started)} de ${formatCount(r.enrolled)} (${formatShare(share(r.started, r.enrolled))}) · Concluíram: ${formatCount(r.completed)} (${formatShare(share(r.completed, r.enrolled))})`,
  }));
  return (
    <ChartCard
      title="Funil de conclusão"
      description={query.data ? `Dos ${formatCount(enrolled)} alunos matriculados, quantos iniciaram e quantos concluíram cada aula` : 'Quantos alunos matriculados iniciaram e concluíram cada aula'}
      query={query}
      loadErrorTitle="Não foi possível carregar o funil de conclusão"
      rows={rows}
      rowKey={(r) => r.lesson_id}
      columns={FUNNEL_COLUMNS}
      empty={rows.length === 0 || enrolled === 0}
      emptyText={rows.length === 0 ? 'Este curso ainda não tem aulas.' : 'Ainda não há alunos matriculados neste curso.'}
      summary={rows.length > 0 ? funnelSummary(rows) : undefined}
      csvFile={`${csvFile}-funil`}
    >
      <BarList label="Funil de conclusão por aula" items={items} labelWidth="4.75rem" valueWidth="3rem" />
    </ChartCard>
  );
}

const STEPS = [25, 50, 75, 90] as const;
const reached = (r: RetentionRow, step: (typeof STEPS)[number]) => r[`reached_${step}`];

function duration(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}

function retentionSummary(rows: RetentionRow[]): string {
  const watched = rows.filter((r) => r.viewers > 0);
  const parts = [`Retenção de vídeo: ${rows.length} ${rows.length === 1 ? 'aula com vídeo' : 'aulas com vídeo'}, ${watched.length} ${watched.length === 1 ? 'assistida' : 'assistidas'}`];
  const lowest = watched.reduce<RetentionRow | undefined>((low, r) => (!low || share(r.reached_90, r.viewers) < share(low.reached_90, low.viewers) ? r : low), undefined);
  const highest = watched.reduce<RetentionRow | undefined>((high, r) => (!high || share(r.reached_90, r.viewers) > share(high.reached_90, high.viewers) ? r : high), undefined);
  if (highest) parts.push(`maior parte que chega a 90%: ${lessonName(highest)}, ${formatShare(share(highest.reached_90, highest.viewers))} de ${formatCount(highest.viewers)}`);
  if (lowest && lowest !== highest) parts.push(`menor: ${lessonName(lowest)}, ${formatShare(share(lowest.reached_90, lowest.viewers))} de ${formatCount(lowest.viewers)}`);
  return `${parts.join('; ')}.`;
}

const watchedText = (viewers: number) => (viewers === 1 ? '1 assistiu' : `${formatCount(viewers)} assistiram`);

const RETENTION_COLUMNS: ChartColumn<RetentionRow>[] = [
  // The table says the viewers beside the lesson (five number columns would not fit a phone); the CSV apart.
  { header: 'Aula', cell: (r) => `${lessonName(r)} (${watchedText(r.viewers)})`, only: 'table' },
  { header: 'Aula', cell: lessonName, only: 'csv' },
  { header: 'Duração', cell: (r) => duration(r.duration_sec), csvHeader: 'Duração (s)', csv: (r) => String(r.duration_sec), numeric: true, only: 'csv' },
  { header: 'Assistiram', cell: (r) => formatCount(r.viewers), csv: (r) => String(r.viewers), numeric: true, only: 'csv' },
  ...STEPS.map(
    (step): ChartColumn<RetentionRow> => ({
      header: `${step}%`,
      csvHeader: `Chegaram a ${step}%`,
      cell: (r) => (r.viewers ? formatShare(share(reached(r, step), r.viewers)) : '—'),
      csv: (r) => String(reached(r, step)),
      numeric: true,
    }),
  ),
  ...STEPS.map((step): ChartColumn<RetentionRow> => ({ header: `Chegaram a ${step}% (%)`, cell: (r) => csvNumber(share(reached(r, step), r.viewers) * 100, 1), only: 'csv' })),
];

export function RetentionChart({ courseId, csvFile }: { courseId: string; csvFile: string }) {
  const query = useVideoRetention(courseId);
  const rows = query.data ?? [];
  const items: BarListItem[] = rows.map((r) => ({
    key: r.lesson_id,
    title: lessonName(r),
    aside: watchedText(r.viewers),
    bars: STEPS.map((step) => ({ label: `${step}%`, share: share(reached(r, step), r.viewers), text: r.viewers ? formatShare(share(reached(r, step), r.viewers)) : '—' })),
    tooltip: `Vídeo de ${duration(r.duration_sec)} · ${STEPS.map((step) => `${step}%: ${formatCount(reached(r, step))} de ${formatCount(r.viewers)}`).join(' · ')}`,
  }));
  return (
    <ChartCard
      title="Retenção de vídeo"
      description="Dos alunos que deram play, a parte que chegou a 25%, 50%, 75% e 90% do vídeo"
      query={query}
      loadErrorTitle="Não foi possível carregar a retenção de vídeo"
      rows={rows}
      rowKey={(r) => r.lesson_id}
      columns={RETENTION_COLUMNS}
      empty={rows.every((r) => r.viewers === 0)}
      emptyText={rows.length === 0 ? 'Nenhuma aula deste curso tem vídeo com duração conhecida.' : 'Ainda ninguém assistiu aos vídeos deste curso.'}
      summary={rows.length > 0 ? retentionSummary(rows) : undefined}
      csvFile={`${csvFile}-retencao`}
    >
      <BarList label="Retenção de vídeo por aula" items={items} labelWidth="2.25rem" valueWidth="2.75rem" />
    </ChartCard>
  );
}

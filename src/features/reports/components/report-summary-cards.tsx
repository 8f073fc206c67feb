// Relatórios' six numbers (admin_report_summary) for the school, a course or one turma of it (issue 40).
// Relatórios shows them under its filters; the dashboard shows them when its Curso filter is chosen.
import { Activity, BookCheck, MessageSquare, Star, TrendingUp, Users } from 'lucide-react';
import { Skeleton } from '@/components/ui/skeleton';
import { useReportSummary } from '../api/hooks';
import type { ReportSummary } from '../api/queries';

function ratingText(r: number | null) {
  return r === null ? '—' : `${r.toLocaleString('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} / 5`;
}

const CARDS: {
  key: keyof ReportSummary;
  label: string;
  hint: string;
  icon: typeof Users;
  format: (s: ReportSummary) => string;
}[] = [
  {
    key: 'total_students',
    label: 'Total de alunos',
    hint: 'contas da escola sem papel administrativo',
    icon: Users,
    format: (s) => s.total_students.toLocaleString('pt-BR'),
  },
  {
    key: 'active_last_7_days',
    label: 'Ativos nos últimos 7 dias',
    hint: 'entraram ou estudaram',
    icon: Activity,
    format: (s) => s.active_last_7_days.toLocaleString('pt-BR'),
  },
  {
    key: 'average_progress',
    label: 'Progresso médio',
    hint: 'dos alunos matriculados',
    icon: TrendingUp,
    format: (s) => `${s.average_progress}%`,
  },
  {
    key: 'courses_completed',
    label: 'Cursos concluídos',
    hint: 'matrículas com todas as aulas concluídas',
    icon: BookCheck,
    format: (s) => s.courses_completed.toLocaleString('pt-BR'),
  },
  {
    key: 'average_rating',
    label: 'Avaliação média',
    hint: 'das aulas',
    icon: Star,
    format: (s) => ratingText(s.average_rating),
  },
  {
    key: 'comments_last_30_days',
    label: 'Comentários (30 dias)',
    hint: 'nas aulas',
    icon: MessageSquare,
    format: (s) => s.comments_last_30_days.toLocaleString('pt-BR'),
  },
];

export function ReportSummaryCards({
  schoolId,
  courseId,
  turmaId,
}: {
  schoolId: string;
  courseId: string | null;
  turmaId: string | null;
}) {
  const summary = useReportSummary(schoolId, courseId, turmaId);
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Resumo">
      {CARDS.map(({ key, label, hint, icon: Icon, format }) => (
        <li key={key} className="flex items-center gap-4 rounded-xl border border-border bg-white p-5 shadow-xs">
          <span className="flex size-11 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
            <Icon aria-hidden="true" className="size-5" />
          </span>
          <div className="min-w-0">
            <p className="text-sm text-muted-foreground" id={`report-${key}`}>
              {label}
            </p>
            {/* A div: the loading Skeleton is a div, which a <p> may not hold. */}
            <div className="text-2xl font-bold tabular-nums" aria-labelledby={`report-${key}`}>
              {summary.data ? (
                format(summary.data)
              ) : summary.isError ? (
                '—'
              ) : (
                <Skeleton className="inline-block h-7 w-14 align-middle" />
              )}
            </div>
            <p className="text-xs text-muted-foreground">{hint}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}

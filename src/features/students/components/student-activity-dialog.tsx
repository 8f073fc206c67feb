// 'Ver atividade' of a student card (issue 25): the lessons the student completed in each of the last
// 12 weeks (a small bar chart, with its table and CSV) and the progress in each course they are
// enrolled in.
import { BookOpen } from 'lucide-react';
import { ChartCard, type ChartColumn } from '@/components/charts/chart-card';
import { bucketLabel, csvNumber, formatCount, seriesSummary, type TimePoint } from '@/components/charts/chart-format';
import { TimeSeriesChart } from '@/components/charts/lazy-charts';
import { Badge } from '@/components/ui/badge';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Skeleton } from '@/components/ui/skeleton';
import { ENROLLMENT_STATUS_LABEL } from '@/concepts/enrollment';
import { formatDate } from '@/utils/format';
import { finalSlug } from '@/utils/slug';
import { useStudentActivity, useStudentCourseProgress } from '../api/hooks';
import { ACTIVITY_WEEKS, type StudentRow } from '../api/queries';

const lessons = (n: number) => `${formatCount(n)} ${n === 1 ? 'aula concluída' : 'aulas concluídas'}`;

const WEEK_COLUMNS: ChartColumn<TimePoint>[] = [
  { header: 'Semana', cell: (p) => bucketLabel(p.start, 'week'), csvHeader: 'Semana (segunda-feira)', csv: (p) => formatDate(`${p.start}T12:00:00Z`) },
  { header: 'Aulas concluídas', cell: (p) => formatCount(p.value), csv: (p) => csvNumber(p.value), numeric: true },
];

function WeeklyActivity({ student }: { student: StudentRow }) {
  const query = useStudentActivity(student.id);
  const weeks = query.data ?? [];
  const total = weeks.reduce((sum, w) => sum + w.value, 0);
  const period = `nas últimas ${ACTIVITY_WEEKS} semanas`;
  return (
    <ChartCard
      title="Aulas concluídas por semana"
      description={`Últimas ${ACTIVITY_WEEKS} semanas`}
      query={query}
      loadErrorTitle="Não foi possível carregar a atividade"
      rows={weeks}
      rowKey={(w) => w.start}
      columns={WEEK_COLUMNS}
      empty={weeks.every((w) => w.value === 0)}
      total={formatCount(total)}
      summary={seriesSummary({ title: `Aulas concluídas por ${student.name}`, points: weeks, unit: 'week', total: formatCount(total), period, valueText: lessons })}
      csvFile={`atividade-${finalSlug(student.name).slice(0, 40) || 'aluno'}`}
      skeletonHeight={160}
    >
      <TimeSeriesChart points={weeks} unit="week" valueText={lessons} tickText={formatCount} label="Aulas concluídas por semana" height={160} />
    </ChartCard>
  );
}

function CourseProgress({ student }: { student: StudentRow }) {
  const courses = useStudentCourseProgress(student.id);
  let body;
  if (courses.isPending) body = <Skeleton className="h-24" />;
  else if (courses.isError) body = <LoadError title="Não foi possível carregar o progresso" onRetry={courses.refetch} />;
  else if (courses.data.length === 0) body = <EmptyState icon={BookOpen} title="Nenhuma matrícula" description="Este aluno ainda não está matriculado em nenhum curso." className="py-8" />;
  else
    body = (
      <ul className="grid gap-3" aria-label="Cursos do aluno">
        {courses.data.map((c) => (
          <li key={c.course_id} className="grid gap-1.5">
            <div className="flex items-baseline justify-between gap-2">
              <p className="min-w-0 truncate text-sm font-medium" title={c.course_title}>
                {c.course_title}
              </p>
              <span className="shrink-0 text-sm font-semibold tabular-nums">{c.percent}%</span>
            </div>
            <ProgressBar value={c.percent} label={`Progresso em ${c.course_title}`} />
            <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
              <span>
                {formatCount(c.completed)} de {formatCount(c.total)} {c.total === 1 ? 'aula' : 'aulas'} · {c.last_activity ? `última atividade em ${formatDate(c.last_activity)}` : 'nunca estudou'}
              </span>
              {/* The enrollment's status only when it is not the usual one (SPEC §2; issue 19). */}
              {c.status !== 'ACTIVE' && <Badge variant="secondary">{ENROLLMENT_STATUS_LABEL[c.status]}</Badge>}
            </p>
          </li>
        ))}
      </ul>
    );
  return (
    <section aria-labelledby={`progress-${student.id}`} className="grid gap-3 rounded-xl border border-border bg-white p-4 shadow-xs sm:p-5">
      <h3 id={`progress-${student.id}`} className="font-semibold">
        Progresso por curso
      </h3>
      {body}
    </section>
  );
}

export function StudentActivityDialog({ student, onClose }: { student: StudentRow; onClose: () => void }) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Atividade de {student.name}</DialogTitle>
          <DialogDescription>As aulas concluídas por semana e o progresso em cada curso em que o aluno está matriculado.</DialogDescription>
        </DialogHeader>
        <WeeklyActivity student={student} />
        <CourseProgress student={student} />
      </DialogContent>
    </Dialog>
  );
}

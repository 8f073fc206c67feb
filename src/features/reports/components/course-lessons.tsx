// Reports → 'Aulas do curso' (issue 25): one tab with three sections about the lessons of the course
// chosen in the filter: the completion funnel, the video retention, and the average rating and
// comments of each lesson. One tab, not three: all three need a course, they are read together (where
// students stop, where they stop watching, what they say), and the tab list stays short on a phone.
import { BookOpen } from 'lucide-react';
import { ChartCard, type ChartColumn } from '@/components/charts/chart-card';
import { csvNumber, formatCount } from '@/components/charts/chart-format';
import { EmptyState } from '@/components/ui/empty-state';
import { finalSlug } from '@/utils/slug';
import { useLessonEngagement } from '../api/hooks';
import type { EngagementRow } from '../api/queries';
import { FunnelChart, RetentionChart } from './lesson-charts';

const rating = (r: EngagementRow) => (r.average_rating === null ? '—' : `${r.average_rating.toLocaleString('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} / 5`);

const ENGAGEMENT_COLUMNS: ChartColumn<EngagementRow>[] = [
  { header: 'Aula', cell: (r) => `${r.position}. ${r.lesson_title}` },
  // Short headers: four columns fit a phone; the card's title and description say what they count.
  { header: 'Média', cell: rating, csvHeader: 'Avaliação média (1 a 5)', csv: (r) => (r.average_rating === null ? '' : csvNumber(r.average_rating, 1)), numeric: true },
  { header: 'Notas', csvHeader: 'Avaliações', cell: (r) => formatCount(r.ratings), csv: (r) => String(r.ratings), numeric: true },
  { header: 'Comentários', cell: (r) => formatCount(r.comments), csv: (r) => String(r.comments), numeric: true },
];

function EngagementTable({ courseId, csvFile, className }: { courseId: string; csvFile: string; className?: string }) {
  const query = useLessonEngagement(courseId);
  return (
    <ChartCard
      className={className}
      title="Avaliação média e comentários por aula"
      description="Notas de 1 a 5 que os alunos deram a cada aula e os comentários deixados nela"
      query={query}
      loadErrorTitle="Não foi possível carregar as avaliações das aulas"
      rows={query.data ?? []}
      rowKey={(r) => r.lesson_id}
      columns={ENGAGEMENT_COLUMNS}
      emptyText="Este curso ainda não tem aulas."
      csvFile={`${csvFile}-avaliacoes-das-aulas`}
      skeletonHeight={160}
    />
  );
}

export function CourseLessons({ course, turmaId = null }: { course: { id: string; title: string } | null; turmaId?: string | null }) {
  if (!course)
    return (
      <EmptyState
        icon={BookOpen}
        title="Escolha um curso"
        description="Selecione um curso no filtro “Curso” acima para ver o funil de conclusão, a retenção de vídeo e a avaliação de cada aula."
      />
    );
  const file = finalSlug(course.title).slice(0, 60) || 'curso';
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <FunnelChart key={`f-${course.id}-${turmaId ?? ''}`} courseId={course.id} turmaId={turmaId} csvFile={file} />
      <RetentionChart key={`r-${course.id}`} courseId={course.id} csvFile={file} />
      <EngagementTable key={`e-${course.id}`} courseId={course.id} csvFile={file} className="lg:col-span-2" />
    </div>
  );
}

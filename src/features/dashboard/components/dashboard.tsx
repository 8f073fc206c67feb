// The admin dashboard (Painel): the school's four counters and its trends; with the Curso filter (and, for a
// course with turmas, the Turma one; issue 40) the counters give way to that course's or turma's numbers,
// which Relatórios owns (the route passes them in). Without a filter it asks exactly what it asked before:
// the course list is read only once "Filtrar por curso" is pressed (or a filter is in the URL).
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { BookOpen, FileText, Filter, GraduationCap, Users, type LucideIcon } from 'lucide-react';
import { TurmaFilter } from '@/concepts/turma-filter';
import { useChosenTurma } from '@/concepts/turmas';
import { Button } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { useSession } from '@/platform/session';
import { useListParams } from '@/utils/list-params';
import { useDashboardCounts } from '../api/hooks';
import type { DashboardCounts } from '../api/queries';

const Trends = lazy(() => import('./trends'));

const COUNTERS: { key: keyof DashboardCounts; label: string; icon: LucideIcon }[] = [
  { key: 'courses', label: 'Total de Cursos', icon: BookOpen },
  { key: 'students', label: 'Total de Alunos', icon: Users },
  { key: 'materials', label: 'Materiais', icon: FileText },
  { key: 'active_enrollments', label: 'Matrículas Ativas', icon: GraduationCap },
];

/** What the route passes in: the Curso filter with the school's courses, and a course's (or turma's) numbers. */
export interface DashboardCourseParts {
  renderCourseFilter: (p: {
    id: string;
    schoolId: string;
    value: string;
    onChange: (courseId: string) => void;
  }) => ReactNode;
  renderCourseSummary: (p: { schoolId: string; courseId: string; turmaId: string | null }) => ReactNode;
}

const COURSE_PARAM = 'curso';
const TURMA_PARAM = 'turma';

export function Dashboard({ renderCourseFilter, renderCourseSummary }: DashboardCourseParts) {
  const { profile, school } = useSession();
  const schoolId = profile?.school_id;
  const { filter, setFilter, setFilters } = useListParams();
  const courseId = filter(COURSE_PARAM);
  const turmaId = useChosenTurma(courseId, filter(TURMA_PARAM));
  const [picking, setPicking] = useState(false);
  // The school's counters only without a course: with one, its numbers take their place.
  const counts = useDashboardCounts(courseId ? null : schoolId);
  return (
    <AdminPage>
      <PageHeader
        title="Dashboard"
        description={school ? `Visão geral de ${school.member_area_name ?? school.name}` : 'Visão geral da escola'}
      />
      {schoolId &&
        (picking || courseId ? (
          <div className="grid gap-3 sm:grid-cols-2 md:max-w-2xl">
            {renderCourseFilter({
              id: 'dashboard-course',
              schoolId,
              value: courseId,
              onChange: (v) => setFilters({ [COURSE_PARAM]: v, [TURMA_PARAM]: '' }),
            })}
            <TurmaFilter
              id="dashboard-turma"
              courseId={courseId}
              value={turmaId}
              onChange={(v) => setFilter(TURMA_PARAM, v)}
            />
          </div>
        ) : (
          <div>
            <Button type="button" variant="outline" size="sm" onClick={() => setPicking(true)}>
              <Filter aria-hidden="true" />
              Filtrar por curso
            </Button>
          </div>
        ))}
      {schoolId && courseId ? (
        <section aria-labelledby="course-summary-title" className="grid gap-3">
          <h2 id="course-summary-title" className="text-lg font-semibold">
            {turmaId ? 'Alunos da turma' : 'Alunos do curso'}
          </h2>
          {renderCourseSummary({ schoolId, courseId, turmaId: turmaId || null })}
        </section>
      ) : (
        <CounterList counts={counts} hasSchool={!!schoolId} />
      )}
      {counts.isError && <LoadError title="Não foi possível carregar os contadores" onRetry={counts.refetch} />}
      {schoolId && courseId && <p className="-mb-2 text-sm text-muted-foreground">As tendências abaixo são da escola toda.</p>}
      {schoolId && (
        <Suspense fallback={<Skeleton className="h-96 rounded-xl" />}>
          <Trends schoolId={schoolId} />
        </Suspense>
      )}
    </AdminPage>
  );
}

function CounterList({ counts, hasSchool }: { counts: ReturnType<typeof useDashboardCounts>; hasSchool: boolean }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Contadores">
      {COUNTERS.map(({ key, label, icon: Icon }) => {
        const value = counts.data
          ? counts.data[key].toLocaleString('pt-BR')
          : counts.isError || !hasSchool
            ? '—'
            : null;
        return (
          <li key={key} className="flex items-center gap-4 rounded-xl border border-border bg-white p-5 shadow-xs">
            <span className="flex size-11 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
              <Icon aria-hidden="true" className="size-5" />
            </span>
            <div className="min-w-0">
              <p className="text-sm text-muted-foreground" id={`counter-${key}`}>
                {label}
              </p>
              <p
                className="text-2xl font-bold tabular-nums"
                aria-labelledby={`counter-${key}`}
                aria-busy={value === null}
              >
                {value ?? <span className="inline-block h-7 w-12 animate-pulse rounded bg-muted align-middle" />}
              </p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

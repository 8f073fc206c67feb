import { lazy, Suspense } from 'react';
import { BookOpen, FileText, GraduationCap, Users, type LucideIcon } from 'lucide-react';
import { LoadError } from '@/components/ui/load-error';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { useSession } from '@/platform/session';
import { useDashboardCounts } from '../api/hooks';
import type { DashboardCounts } from '../api/queries';

const Trends = lazy(() => import('./trends'));

const COUNTERS: { key: keyof DashboardCounts; label: string; icon: LucideIcon }[] = [
  { key: 'courses', label: 'Total de Cursos', icon: BookOpen },
  { key: 'students', label: 'Total de Alunos', icon: Users },
  { key: 'materials', label: 'Materiais', icon: FileText },
  { key: 'active_enrollments', label: 'Matrículas Ativas', icon: GraduationCap },
];

export function Dashboard() {
  const { profile, school } = useSession();
  const schoolId = profile?.school_id;
  const counts = useDashboardCounts(schoolId);
  return (
    <AdminPage>
      <PageHeader title="Dashboard" description={school ? `Visão geral de ${school.member_area_name ?? school.name}` : 'Visão geral da escola'} />
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Contadores">
        {COUNTERS.map(({ key, label, icon: Icon }) => {
          const value = counts.data ? counts.data[key].toLocaleString('pt-BR') : counts.isError || !profile?.school_id ? '—' : null;
          return (
            <li key={key} className="flex items-center gap-4 rounded-xl border border-border bg-white p-5 shadow-xs">
              <span className="flex size-11 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
                <Icon aria-hidden="true" className="size-5" />
              </span>
              <div className="min-w-0">
                <p className="text-sm text-muted-foreground" id={`counter-${key}`}>
                  {label}
                </p>
                <p className="text-2xl font-bold tabular-nums" aria-labelledby={`counter-${key}`} aria-busy={value === null}>
                  {value ?? <span className="inline-block h-7 w-12 animate-pulse rounded bg-muted align-middle" />}
                </p>
              </div>
            </li>
          );
        })}
      </ul>
      {counts.isError && <LoadError title="Não foi possível carregar os contadores" onRetry={counts.refetch} />}
      {schoolId && (
        <Suspense fallback={<Skeleton className="h-96 rounded-xl" />}>
          <Trends schoolId={schoolId} />
        </Suspense>
      )}
    </AdminPage>
  );
}

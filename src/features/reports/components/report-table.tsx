// A students tab of the reports: one page (its number in the URL, ?pagina=2), the total, and the CSV.
import type { ReactNode } from 'react';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { Pagination } from '@/components/ui/pagination';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDate } from '@/lib/format';
import { useListParams } from '@/lib/list-params';
import { useReportTab } from '../api/hooks';
import { REPORT_PAGE_SIZE, type ReportTab } from '../api/queries';
import { ExportCsvButton } from './export-csv-button';

export function ReportTable({ schoolId, tab, courseId, empty, fileName }: { schoolId: string; tab: ReportTab; courseId: string | null; empty: string; fileName: string }) {
  const { page, setPage } = useListParams();
  const data = useReportTab(schoolId, tab, courseId, page);

  let body: ReactNode;
  if (data.isPending) body = <Skeleton className="h-48 rounded-xl" />;
  else if (data.isError) body = <LoadError title="Não foi possível carregar o relatório" onRetry={data.refetch} />;
  else if (data.data.rows.length === 0) body = <EmptyState title={empty} />;
  else
    body = (
      <div className="overflow-x-auto rounded-xl border border-border bg-white">
        <table className="w-full min-w-[640px] text-left text-sm">
          <thead className="bg-muted/50 text-xs text-muted-foreground uppercase">
            <tr>
              <th scope="col" className="px-4 py-3">
                Aluno
              </th>
              <th scope="col" className="px-4 py-3">
                Cursos
              </th>
              <th scope="col" className="px-4 py-3">
                Aulas
              </th>
              <th scope="col" className="px-4 py-3">
                Progresso
              </th>
              <th scope="col" className="px-4 py-3">
                Último acesso
              </th>
            </tr>
          </thead>
          <tbody>
            {data.data.rows.map((r) => (
              <tr key={r.user_id} className="border-t border-border">
                <td className="max-w-[16rem] px-4 py-3">
                  <p className="truncate font-medium">{r.name}</p>
                  <p className="truncate text-xs text-muted-foreground">{r.email}</p>
                </td>
                <td className="px-4 py-3 tabular-nums">
                  {r.enrolled_courses} ({r.active_enrollments} {r.active_enrollments === 1 ? 'ativa' : 'ativas'})
                </td>
                <td className="px-4 py-3 tabular-nums">
                  {r.completed_lessons} de {r.total_lessons}
                </td>
                <td className="px-4 py-3">
                  <div className="flex items-center gap-2">
                    <ProgressBar value={r.progress} label={`Progresso de ${r.name}`} className="w-24" />
                    <span className="tabular-nums">{r.progress}%</span>
                  </div>
                </td>
                <td className="px-4 py-3 whitespace-nowrap">{r.last_access ? formatDate(r.last_access) : 'Nunca'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {data.data ? `${data.data.total.toLocaleString('pt-BR')} ${data.data.total === 1 ? 'aluno' : 'alunos'}` : ''}
        </p>
        <ExportCsvButton fileName={fileName} disabled={!data.data?.total} rows={{ kind: 'students', schoolId, tab, courseId }} />
      </div>
      {body}
      {data.data && <Pagination page={page} pageSize={REPORT_PAGE_SIZE} total={data.data.total} onPageChange={setPage} label="Páginas do relatório" />}
    </div>
  );
}

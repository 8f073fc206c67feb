// A students tab of the reports: one page (its number in the URL, ?pagina=2), the total, and the CSV.
import { EmptyState } from '@/components/ui/empty-state';
import { ProgressBar } from '@/components/ui/progress-bar';
import { formatDate } from '@/utils/format';
import { useListParams } from '@/utils/list-params';
import { useReportTab } from '../api/hooks';
import { REPORT_PAGE_SIZE, type ReportTab } from '../api/queries';
import { PagedReport } from './paged-report';

export function ReportTable({ schoolId, tab, courseId, turmaId = null, empty, fileName }: { schoolId: string; tab: ReportTab; courseId: string | null; turmaId?: string | null; empty: string; fileName: string }) {
  const { page, setPage } = useListParams();
  return (
    <PagedReport
      query={useReportTab(schoolId, tab, courseId, page, turmaId)}
      page={page}
      pageSize={REPORT_PAGE_SIZE}
      onPageChange={setPage}
      noun={['aluno', 'alunos']}
      loadErrorTitle="Não foi possível carregar o relatório"
      empty={<EmptyState title={empty} />}
      columns={['Aluno', 'Cursos', 'Aulas', 'Progresso', 'Último acesso']}
      minWidth="640px"
      rowKey={(r) => r.user_id}
      cells={(r) => (
        <>
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
        </>
      )}
      exportFile={fileName}
      exportRows={{ kind: 'students', schoolId, tab, courseId, turmaId }}
      pagerLabel="Páginas do relatório"
    />
  );
}

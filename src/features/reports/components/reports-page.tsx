import { useState, type ReactNode } from 'react';
import { Activity, BookCheck, MessageSquare, Star, TrendingUp, Users } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Label } from '@/components/ui/label';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { formatDate } from '@/lib/format';
import { fetchReportForExport, useReportSummary, useReportTab } from '../api/hooks';
import { REPORT_PAGE_SIZE, type ReportSummary, type ReportTab } from '../api/queries';
import { reportCsv } from '../lib/csv';
import { ExportCsvButton } from './export-csv-button';
import { IssuedCertificates } from './issued-certificates';

export interface CourseOption {
  id: string;
  title: string;
}

const TABS: { value: ReportTab; label: string; empty: string; file: string }[] = [
  { value: 'all', label: 'Todos os alunos', empty: 'Nenhum aluno.', file: 'alunos' },
  { value: 'multi', label: 'Vários cursos', empty: 'Nenhum aluno com mais de uma matrícula ativa.', file: 'alunos-varios-cursos' },
  { value: 'inactive', label: 'Inativos', empty: 'Nenhum aluno inativo.', file: 'alunos-inativos' },
];

function ratingText(r: number | null) {
  return r === null ? '—' : `${r.toLocaleString('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} / 5`;
}

const CARDS: { key: keyof ReportSummary; label: string; hint: string; icon: typeof Users; format: (s: ReportSummary) => string }[] = [
  { key: 'total_students', label: 'Total de alunos', hint: 'contas da escola sem papel administrativo', icon: Users, format: (s) => s.total_students.toLocaleString('pt-BR') },
  { key: 'active_last_7_days', label: 'Ativos nos últimos 7 dias', hint: 'entraram ou estudaram', icon: Activity, format: (s) => s.active_last_7_days.toLocaleString('pt-BR') },
  { key: 'average_progress', label: 'Progresso médio', hint: 'dos alunos matriculados', icon: TrendingUp, format: (s) => `${s.average_progress}%` },
  { key: 'courses_completed', label: 'Cursos concluídos', hint: 'matrículas com todas as aulas concluídas', icon: BookCheck, format: (s) => s.courses_completed.toLocaleString('pt-BR') },
  { key: 'average_rating', label: 'Avaliação média', hint: 'das aulas', icon: Star, format: (s) => ratingText(s.average_rating) },
  { key: 'comments_last_30_days', label: 'Comentários (30 dias)', hint: 'nas aulas', icon: MessageSquare, format: (s) => s.comments_last_30_days.toLocaleString('pt-BR') },
];

export function ReportsPage({ schoolId, courses }: { schoolId: string; courses: CourseOption[] }) {
  const [courseId, setCourseId] = useState('');
  const [tab, setTab] = useState<ReportTab | 'certificates'>('all');
  const course = courseId || null;
  const summary = useReportSummary(schoolId, course);
  return (
    <AdminPage>
      <PageHeader title="Relatórios" description="Engajamento dos alunos" />
      <div className="grid max-w-sm gap-2">
        <Label htmlFor="report-course">Curso</Label>
        <Select id="report-course" value={courseId} onChange={(e) => setCourseId(e.target.value)}>
          <option value="">Todos os cursos</option>
          {courses.map((c) => (
            <option key={c.id} value={c.id}>
              {c.title}
            </option>
          ))}
        </Select>
      </div>
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
              <p className="text-2xl font-bold tabular-nums" aria-labelledby={`report-${key}`}>
                {summary.data ? format(summary.data) : summary.isError ? '—' : <Skeleton className="inline-block h-7 w-14 align-middle" />}
              </p>
              <p className="text-xs text-muted-foreground">{hint}</p>
            </div>
          </li>
        ))}
      </ul>
      <Tabs value={tab} onValueChange={(v) => setTab(v as ReportTab | 'certificates')}>
        <TabsList className="h-auto w-full flex-wrap sm:w-auto">
          {TABS.map((t) => (
            <TabsTrigger key={t.value} value={t.value}>
              {t.label}
            </TabsTrigger>
          ))}
          <TabsTrigger value="certificates">Certificados emitidos</TabsTrigger>
        </TabsList>
        {TABS.map((t) => (
          <TabsContent key={t.value} value={t.value}>
            {tab === t.value && <ReportTable schoolId={schoolId} tab={t.value} courseId={course} empty={t.empty} fileName={t.file} />}
          </TabsContent>
        ))}
        <TabsContent value="certificates">{tab === 'certificates' && <IssuedCertificates key={courseId} schoolId={schoolId} courseId={course} />}</TabsContent>
      </Tabs>
      <p className="text-xs text-muted-foreground">
        Progresso: aulas concluídas ÷ aulas dos cursos em que o aluno está matriculado, arredondado. Inativo: nunca acessou ou tem progresso abaixo de 10%. Vários cursos: mais de uma
        matrícula ativa.
      </p>
    </AdminPage>
  );
}

function ReportTable({ schoolId, tab, courseId, empty, fileName }: { schoolId: string; tab: ReportTab; courseId: string | null; empty: string; fileName: string }) {
  const [page, setPage] = useState(0);
  const data = useReportTab(schoolId, tab, courseId, page);

  let body: ReactNode;
  if (data.isPending) body = <Skeleton className="h-48 rounded-xl" />;
  else if (data.isError) body = <EmptyState title="Não foi possível carregar o relatório" action={<Button onClick={() => void data.refetch()}>Tentar novamente</Button>} />;
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
        <ExportCsvButton
          fileName={fileName}
          disabled={!data.data?.total}
          build={async () => reportCsv(await fetchReportForExport(schoolId, tab, courseId), formatDate)}
        />
      </div>
      {body}
      {data.data && <Pagination page={page} pageSize={REPORT_PAGE_SIZE} total={data.data.total} onPageChange={setPage} label="Páginas do relatório" />}
    </div>
  );
}

// Reports (SPEC §2/§9): the course filter, six numbers, three students tabs, the issued
// certificates, the quiz results and the course's lessons (funnel, video retention, ratings; issue 25).
// The course, the tab and the page live in the URL (?curso=…&aba=inativos&pagina=2).
import { Activity, BookCheck, MessageSquare, Star, TrendingUp, Users } from 'lucide-react';
import { CourseFilter, type CourseOption } from '@/concepts/course-filter';
import { useCourseTurmas } from '@/concepts/turmas';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useListParams } from '@/utils/list-params';
import { useReportSummary } from '../api/hooks';
import type { ReportSummary, ReportTab } from '../api/queries';
import { CourseLessons } from './course-lessons';
import { IssuedCertificates } from './issued-certificates';
import { QuizReport } from './quiz-report';
import { ReportTable } from './report-table';

/** `param`: the tab in the URL (?aba=…); the first tab is the default, shown without it. */
const TABS: { value: ReportTab; param: string; label: string; empty: string; file: string }[] = [
  { value: 'all', param: 'todos', label: 'Todos os alunos', empty: 'Nenhum aluno.', file: 'alunos' },
  { value: 'multi', param: 'varios-cursos', label: 'Vários cursos', empty: 'Nenhum aluno com mais de uma matrícula ativa.', file: 'alunos-varios-cursos' },
  { value: 'inactive', param: 'inativos', label: 'Inativos', empty: 'Nenhum aluno inativo.', file: 'alunos-inativos' },
];
const DEFAULT_TAB = TABS[0]!.param;
const CERTIFICATES_TAB = 'certificados';
const QUIZZES_TAB = 'avaliacoes';
const LESSONS_TAB = 'aulas';
const OTHER_TABS = [CERTIFICATES_TAB, QUIZZES_TAB, LESSONS_TAB];
const COURSE_PARAM = 'curso';
const TAB_PARAM = 'aba';

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
  const { filter, setFilter, setFilters } = useListParams();
  const courseId = courses.some((c) => c.id === filter(COURSE_PARAM)) ? filter(COURSE_PARAM) : '';
  const tabParam = filter(TAB_PARAM);
  const tab = OTHER_TABS.includes(tabParam) || TABS.some((t) => t.param === tabParam) ? tabParam : DEFAULT_TAB;
  const course = courseId || null;
  // A turma of the chosen course (issue 40): the numbers and the students' tabs count only its students.
  const turmas = useCourseTurmas(courseId);
  const turmaId = (turmas.data ?? []).some((t) => t.id === filter('turma')) ? filter('turma') : '';
  const turma = turmaId || null;
  const summary = useReportSummary(schoolId, course, turma);
  return (
    <AdminPage>
      <PageHeader title="Relatórios" description="Engajamento dos alunos" />
      <div className="grid gap-3 sm:grid-cols-2 md:max-w-2xl">
        <CourseFilter id="report-course" value={courseId} courses={courses} onChange={(v) => setFilters({ [COURSE_PARAM]: v, turma: '' })} />
        {(turmas.data ?? []).length > 0 && (
          <div className="grid gap-2">
            <Label htmlFor="report-turma">Turma</Label>
            <Select id="report-turma" value={turmaId} onChange={(e) => setFilter('turma', e.target.value)}>
              <option value="">Todas as turmas</option>
              {(turmas.data ?? []).map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </Select>
          </div>
        )}
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
              {/* A div: the loading Skeleton is a div, which a <p> may not hold. */}
              <div className="text-2xl font-bold tabular-nums" aria-labelledby={`report-${key}`}>
                {summary.data ? format(summary.data) : summary.isError ? '—' : <Skeleton className="inline-block h-7 w-14 align-middle" />}
              </div>
              <p className="text-xs text-muted-foreground">{hint}</p>
            </div>
          </li>
        ))}
      </ul>
      <Tabs value={tab} onValueChange={(v) => setFilter(TAB_PARAM, v === DEFAULT_TAB ? '' : v)}>
        <TabsList className="h-auto w-full flex-wrap sm:w-auto">
          {TABS.map((t) => (
            <TabsTrigger key={t.value} value={t.param}>
              {t.label}
            </TabsTrigger>
          ))}
          <TabsTrigger value={CERTIFICATES_TAB}>Certificados emitidos</TabsTrigger>
          <TabsTrigger value={QUIZZES_TAB}>Avaliações</TabsTrigger>
          <TabsTrigger value={LESSONS_TAB}>Aulas do curso</TabsTrigger>
        </TabsList>
        {TABS.map((t) => (
          <TabsContent key={t.value} value={t.param}>
            {tab === t.param && <ReportTable schoolId={schoolId} tab={t.value} courseId={course} turmaId={turma} empty={t.empty} fileName={t.file} />}
          </TabsContent>
        ))}
        <TabsContent value={CERTIFICATES_TAB}>{tab === CERTIFICATES_TAB && <IssuedCertificates schoolId={schoolId} courseId={course} />}</TabsContent>
        <TabsContent value={QUIZZES_TAB}>{tab === QUIZZES_TAB && <QuizReport schoolId={schoolId} courseId={course} />}</TabsContent>
        <TabsContent value={LESSONS_TAB}>{tab === LESSONS_TAB && <CourseLessons course={courses.find((c) => c.id === courseId) ?? null} turmaId={turma} />}</TabsContent>
      </Tabs>
      <p className="text-xs text-muted-foreground">
        Progresso: aulas concluídas ÷ aulas dos cursos em que o aluno está matriculado, arredondado. Inativo: nunca acessou ou tem progresso abaixo de 10%. Vários cursos: mais de uma
        matrícula ativa. Avaliações: a melhor nota e as tentativas enviadas de cada aluno em cada avaliação. Aulas do curso: por aula do curso escolhido, quantos
        matriculados iniciaram e concluíram, até onde assistiram o vídeo e como a avaliaram.
      </p>
    </AdminPage>
  );
}

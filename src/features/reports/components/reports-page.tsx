// Reports (SPEC §2/§9): the course filter, six numbers, three students tabs, the issued
// certificates, the quiz results and the course's lessons (funnel, video retention, ratings; issue 25).
// The course, the tab and the page live in the URL (?curso=…&aba=inativos&pagina=2).
import { CourseFilter, type CourseOption } from '@/concepts/course-filter';
import { TurmaFilter } from '@/concepts/turma-filter';
import { useChosenTurma } from '@/concepts/turmas';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useListParams } from '@/utils/list-params';
import type { ReportTab } from '../api/queries';
import { CourseLessons } from './course-lessons';
import { IssuedCertificates } from './issued-certificates';
import { QuizReport } from './quiz-report';
import { ReportSummaryCards } from './report-summary-cards';
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

export function ReportsPage({ schoolId, courses }: { schoolId: string; courses: CourseOption[] }) {
  const { filter, setFilter, setFilters } = useListParams();
  const courseId = courses.some((c) => c.id === filter(COURSE_PARAM)) ? filter(COURSE_PARAM) : '';
  const tabParam = filter(TAB_PARAM);
  const tab = OTHER_TABS.includes(tabParam) || TABS.some((t) => t.param === tabParam) ? tabParam : DEFAULT_TAB;
  const course = courseId || null;
  // A turma of the chosen course (issue 40): the numbers and the students' tabs count only its students.
  const turmaId = useChosenTurma(courseId, filter('turma'));
  const turma = turmaId || null;
  return (
    <AdminPage>
      <PageHeader title="Relatórios" description="Engajamento dos alunos" />
      <div className="grid gap-3 sm:grid-cols-2 md:max-w-2xl">
        <CourseFilter id="report-course" value={courseId} courses={courses} onChange={(v) => setFilters({ [COURSE_PARAM]: v, turma: '' })} />
        <TurmaFilter id="report-turma" courseId={courseId} value={turmaId} onChange={(v) => setFilter('turma', v)} />
      </div>
      <ReportSummaryCards schoolId={schoolId} courseId={course} turmaId={turma} />
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

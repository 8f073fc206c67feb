// Reports → 'Avaliações' (issue 23): each student's result in each quiz of the school (or of the
// course filtered), newest attempt first: best score, attempts, passed, date of the last attempt. The
// page is in the URL (?aba=avaliacoes&pagina=2).
import { Badge } from '@/components/ui/badge';
import { EmptyState } from '@/components/ui/empty-state';
import { formatDate } from '@/utils/format';
import { useListParams } from '@/utils/list-params';
import { formatScore } from '@/concepts/quiz-state';
import { useQuizReport } from '../api/hooks';
import { QUIZ_REPORT_PAGE_SIZE } from '../api/queries';
import { PagedReport } from './paged-report';

export function QuizReport({ schoolId, courseId }: { schoolId: string; courseId: string | null }) {
  const { page, setPage } = useListParams();
  return (
    <PagedReport
      query={useQuizReport(schoolId, courseId, page)}
      page={page}
      pageSize={QUIZ_REPORT_PAGE_SIZE}
      onPageChange={setPage}
      noun={['resultado', 'resultados']}
      loadErrorTitle="Não foi possível carregar as avaliações"
      empty={<EmptyState title="Nenhuma tentativa de avaliação ainda." description="Os resultados aparecem aqui quando os alunos enviam as respostas de uma avaliação." />}
      columns={['Aluno', 'Avaliação', 'Melhor nota', 'Tentativas', 'Aprovado', 'Data']}
      caption="Resultados das avaliações"
      minWidth="760px"
      rowKey={(r) => `${r.user_id}:${r.quiz_id}`}
      cells={(r) => (
        <>
          <td className="max-w-[16rem] px-4 py-3">
            <p className="truncate font-medium">{r.name}</p>
            <p className="truncate text-xs text-muted-foreground">{r.email}</p>
          </td>
          <td className="max-w-[18rem] px-4 py-3">
            <p className="truncate font-medium">{r.lesson_title}</p>
            <p className="truncate text-xs text-muted-foreground">{r.course_title}</p>
          </td>
          <td className="px-4 py-3 whitespace-nowrap tabular-nums">{formatScore(r.best_score)}</td>
          <td className="px-4 py-3 tabular-nums">{r.attempts.toLocaleString('pt-BR')}</td>
          <td className="px-4 py-3">
            <Badge variant={r.passed ? 'success' : 'destructive'}>{r.passed ? 'Sim' : 'Não'}</Badge>
          </td>
          <td className="px-4 py-3 whitespace-nowrap">{formatDate(r.last_attempt_at)}</td>
        </>
      )}
      exportFile="avaliacoes"
      exportRows={{ kind: 'quizzes', schoolId, courseId }}
      pagerLabel="Páginas dos resultados das avaliações"
    />
  );
}

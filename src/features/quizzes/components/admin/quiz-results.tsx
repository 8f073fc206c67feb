// The quiz's "Resultados" (RPC quiz_results, over finished attempts): attempts, students who passed,
// average score, pass rate, and the questions most often missed.
import { useId, useMemo } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { renderMarkdown } from '@/utils/sanitize';
import { useQuizResults, type QuizResults } from '../../api/admin-hooks';

const number = (n: number) => n.toLocaleString('pt-BR');
const percent = (n: number | null) =>
  n === null ? '—' : `${n.toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%`;

function MissedStatement({ statement }: { statement: string | null }) {
  const html = useMemo(() => renderMarkdown(statement ?? ''), [statement]);
  return (
    <div
      className="prose-content line-clamp-2 text-sm break-words"
      // Rendered through src/utils/sanitize.ts (allow-list of SPEC §5).
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

function Figures({ results }: { results: QuizResults }) {
  const figures = [
    ['Tentativas', number(results.attempts)],
    ['Alunos aprovados', `${number(results.students_passed)} de ${number(results.students)}`],
    ['Nota média', percent(results.average_score)],
    ['Taxa de aprovação', percent(results.pass_rate)],
  ] as const;
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {figures.map(([label, value]) => (
        <div key={label} className="rounded-lg border border-border p-3">
          <dt className="text-xs text-muted-foreground">{label}</dt>
          <dd className="text-lg font-semibold tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function QuizResultsCard({ quizId }: { quizId: string }) {
  const id = useId();
  const results = useQuizResults(quizId);
  return (
    <Card className="shadow-none">
      <CardHeader className="p-4 pb-2">
        <CardTitle className="text-base">Resultados</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4 p-4 pt-0">
        {results.isPending ? (
          <Skeleton className="h-20 rounded-lg" />
        ) : results.isError ? (
          <LoadError title="Não foi possível carregar os resultados" onRetry={results.refetch} className="py-6" />
        ) : results.data.attempts === 0 ? (
          <p className="text-sm text-muted-foreground">Nenhuma tentativa finalizada ainda.</p>
        ) : (
          <>
            <Figures results={results.data} />
            <div className="grid gap-2">
              <h4 id={`${id}-missed`} className="text-sm font-semibold">
                Perguntas mais erradas
              </h4>
              {results.data.most_missed.length === 0 ? (
                <p className="text-sm text-muted-foreground">Nenhuma pergunta errada até agora.</p>
              ) : (
                <ol className="grid gap-2" aria-labelledby={`${id}-missed`}>
                  {results.data.most_missed.map((m) => (
                    <li key={m.question_id} className="grid gap-1 rounded-lg border border-border p-3">
                      <MissedStatement statement={m.statement} />
                      <span className="text-xs text-muted-foreground">
                        Errada em {number(m.missed)} de {number(m.answered)}{' '}
                        {m.answered === 1 ? 'resposta' : 'respostas'} ({percent(m.miss_rate)})
                      </span>
                    </li>
                  ))}
                </ol>
              )}
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}

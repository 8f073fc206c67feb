import { Link } from 'react-router-dom';
import { Megaphone, Trophy } from 'lucide-react';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { cn } from '@/utils/cn';
import { useDismissRankingNotice, useRanking } from '../api/hooks';
import type { Ranking } from '../api/queries';

/** Where the profile's "Aparecer no ranking da escola" is (ranking-visibility-card.tsx scrolls to it). */
export const RANKING_SETTING_HREF = '/profile#ranking';

// Thousands with a dot, as pt-BR writes them, without an Intl formatter per call (each built its own on
// the home's first render, issue 38). Points are whole numbers.
const points = (n: number) => `${String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '.')} ${n === 1 ? 'ponto' : 'pontos'}`;

// The month's name from a list, not Intl: a long-month formatter loads its locale data on the home's
// first render, a long task on a phone (issue 38).
const MONTHS = ['janeiro', 'fevereiro', 'março', 'abril', 'maio', 'junho', 'julho', 'agosto', 'setembro', 'outubro', 'novembro', 'dezembro'];

/** "de novembro de 2026" for the ranking's month (yyyy-mm-01). */
function monthLabel(month: string): string {
  const [, year, index] = /^(\d{4})-(\d{2})/.exec(month) ?? [];
  const name = MONTHS[Number(index) - 1];
  return year && name ? `de ${name} de ${year}` : 'do mês';
}

/** The student's own line under the top 10. */
function ownLine(ranking: Ranking): string | null {
  if (ranking.opted_out) return 'Você escolheu não aparecer no ranking. Você pode mudar isso em Meu Perfil.';
  if (!ranking.me) return null; // staff: they are not ranked
  if (ranking.me.position === null) return 'Você ainda não tem pontos este mês: conclua aulas para entrar no ranking.';
  return `Sua posição: ${ranking.me.position}º · ${points(ranking.me.points)}`;
}

/** Once, the first time the student appears where classmates see them (issue 46): what they see, and the way out. */
function AppearNotice({ name, userId }: { name: string | null; userId: string }) {
  const dismiss = useDismissRankingNotice(userId);
  return (
    <div role="status" data-testid="ranking-notice" className="grid gap-3 rounded-lg border border-primary/30 bg-primary/5 p-3 text-sm">
      <p className="flex items-start gap-2">
        <Megaphone className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
        <span>
          <strong>Você entrou no ranking do mês!</strong> Seus colegas veem seu primeiro nome com a inicial do sobrenome
          {name ? (
            <>
              {' '}
              (<bdi>{name}</bdi>)
            </>
          ) : null}
          , sua foto e seus pontos. Se preferir não aparecer, desligue “Aparecer no ranking da escola” em Meu Perfil.
        </span>
      </p>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={() => dismiss.mutate()} disabled={dismiss.isPending}>
          Entendi
        </Button>
        <Button asChild size="sm" variant="outline">
          <Link to={RANKING_SETTING_HREF}>Ir para Meu Perfil</Link>
        </Button>
      </div>
    </div>
  );
}

/**
 * The home's "Ranking" (issue 26): the school's top 10 of the month and the student's own position;
 * nothing at all when the school has the ranking off (or while it loads, or if it fails: it is extra).
 * Names come from the database as first name and initial (issue 46).
 */
export function RankingCard({ schoolId, userId }: { schoolId: string; userId: string }) {
  const { data } = useRanking(schoolId, userId);
  if (!data?.enabled) return null;
  const own = ownLine(data);
  const myName = data.top.find((e) => e.user_id === userId)?.name ?? null;
  return (
    <Card role="region" aria-labelledby="ranking-title" data-testid="ranking-card" className="max-w-xl">
      <CardHeader>
        <h2 id="ranking-title" className="flex items-center gap-2 text-lg leading-tight font-semibold">
          <Trophy className="size-5 text-primary" aria-hidden="true" />
          Ranking
        </h2>
        <CardDescription>
          Top 10 {monthLabel(data.month)}: {data.weights.lesson} pontos por aula concluída, {data.weights.quiz} por avaliação aprovada e {data.weights.answer} por
          resposta marcada pela equipe.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {data.me?.notice && <AppearNotice name={myName} userId={userId} />}
        {data.top.length === 0 ? (
          <p className="text-sm text-muted-foreground">Ninguém pontuou este mês ainda.</p>
        ) : (
          <ol aria-label="Top 10 do mês" className="grid gap-1">
            {data.top.map((e) => {
              const mine = e.user_id === userId;
              return (
                <li
                  key={e.user_id}
                  data-testid="ranking-row"
                  className={cn('flex items-center gap-3 rounded-lg px-2 py-1.5 text-sm', mine && 'bg-primary/10 font-semibold')}
                >
                  <span className="w-8 shrink-0 text-right font-semibold tabular-nums">{e.position}º</span>
                  <Avatar name={e.name} src={e.avatar_url} decorative className="size-7" fallbackClassName="text-xs" />
                  {/* A long name wraps rather than hiding "(você)" on a phone. */}
                  <span className="min-w-0 flex-1 break-words">
                    <bdi>{e.name}</bdi>
                    {mine && <span className="font-normal text-muted-foreground"> (você)</span>}
                  </span>
                  <span className="shrink-0 tabular-nums text-muted-foreground">{points(e.points)}</span>
                </li>
              );
            })}
          </ol>
        )}
        {own && (
          <p data-testid="ranking-own" className="border-t border-border pt-3 text-sm font-medium">
            {own}
          </p>
        )}
      </CardContent>
    </Card>
  );
}

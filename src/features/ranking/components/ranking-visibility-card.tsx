import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { useRanking, useSetRankingVisibility } from '../api/hooks';

/**
 * Profile: "Aparecer no ranking da escola" (issue 26, LGPD). Shown only when the school's ranking is
 * on; off keeps the student out of everyone's ranking (a ranking_opt_outs row), on removes that row.
 */
export function RankingVisibilityCard({ schoolId, userId }: { schoolId: string; userId: string }) {
  const { data } = useRanking(schoolId, userId);
  const update = useSetRankingVisibility(userId);
  // The home's ranking notice links here (/profile#ranking): shown once the card is, so scroll to it then.
  const { hash } = useLocation();
  const section = useRef<HTMLElement>(null);
  const shown = !!data?.enabled;
  useEffect(() => {
    if (shown && hash === '#ranking') section.current?.scrollIntoView?.({ block: 'start' });
  }, [shown, hash]);
  if (!data?.enabled) return null;
  // While the change is on its way, the switch shows the choice just made.
  const visible = update.isPending ? update.variables : !data.opted_out;
  return (
    <section ref={section} id="ranking" className="grid scroll-mt-20 gap-4 rounded-xl border border-border bg-white p-4 sm:p-6" aria-labelledby="profile-ranking">
      <div>
        <h2 id="profile-ranking" className="text-lg font-semibold">
          Ranking da escola
        </h2>
        <p className="text-sm text-muted-foreground">
          Seu primeiro nome com a inicial do sobrenome, sua foto e seus pontos do mês aparecem no ranking da página inicial para os colegas da escola. Desligado, você não aparece nele.
        </p>
      </div>
      <div className="flex items-center gap-3">
        <Switch id="ranking-visible" checked={visible} disabled={update.isPending} onCheckedChange={(checked) => update.mutate(checked)} />
        <Label htmlFor="ranking-visible">Aparecer no ranking da escola</Label>
      </div>
    </section>
  );
}

import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { SettingSwitch } from '@/components/ui/setting-switch';
import { useRanking, useSetRankingVisibility } from '../api/hooks';

/**
 * Profile: "Aparecer no ranking da escola" (issue 26, LGPD). Shown only when the school's ranking is
 * on; off keeps the student out of everyone's ranking (a ranking_opt_outs row), on removes that row.
 * Saved as every setting is (SettingSwitch: at once, "Salvo"; issue 46).
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
      <SettingSwitch id="ranking-visible" label="Aparecer no ranking da escola" checked={!data.opted_out} onSave={(visible) => update.mutateAsync(visible)} />
    </section>
  );
}

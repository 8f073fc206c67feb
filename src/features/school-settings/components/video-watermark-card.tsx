import { useId } from 'react';
import { SettingSwitch } from '@/components/ui/setting-switch';
import type { SchoolRow } from '@/platform/session';
import { useVideoWatermarkSetting } from '../api/hooks';

/**
 * Settings → Vídeos das aulas: the watermark with the student's name over every lesson video (issue
 * 39), on by default. It saves at once and says "Salvo" (docs/conventions.md, "Settings").
 */
export function VideoWatermarkCard({ school }: { school: SchoolRow }) {
  const id = useId();
  const save = useVideoWatermarkSetting(school.id);
  return (
    <section className="grid gap-3 rounded-xl border border-border bg-white p-4 sm:p-6" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        Vídeos das aulas
      </h2>
      <SettingSwitch
        label="Marca d'água com o nome do aluno nos vídeos"
        description="Mostra sobre cada vídeo, também em tela cheia, o nome e o CPF parcial (ou o e-mail) de quem assiste, mudando de lugar a cada 15 a 30 segundos. Não impede a gravação da tela, mas identifica quem gravou."
        checked={school.video_watermark}
        onSave={(on) => save.mutateAsync(on)}
      />
    </section>
  );
}

import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { LoadError } from '@/components/ui/load-error';
import { SettingSwitch } from '@/components/ui/setting-switch';
import { Skeleton } from '@/components/ui/skeleton';
import { useUnsavedChanges } from '@/components/ui/unsaved-changes';
import { useVideoSettings, type VideoSettings } from '@/concepts/video-settings';
import type { SchoolRow } from '@/platform/session';
import { useSaveVideoSettings, useVideoWatermarkSetting } from '../api/hooks';
import { videoSettingsSchema, type VideoSettingsInput, type VideoSettingsValues } from '../schemas';

/**
 * Settings → Vídeos das aulas (issue 39): the watermark with the student's name over every lesson video
 * (a switch: saved at once, "Salvo"), and the typed limits of school_video_settings, saved by their
 * "Salvar" (docs/conventions.md, "Settings"): simultaneous screens per account, and the devices and
 * networks in 7 days above which "Compartilhamento suspeito" lists an account.
 */
export function VideoSettingsCard({ school }: { school: SchoolRow }) {
  const id = useId();
  const watermark = useVideoWatermarkSetting(school.id);
  const settings = useVideoSettings(school.id);
  return (
    <section className="grid gap-4 rounded-xl border border-border bg-white p-4 sm:p-6" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        Vídeos das aulas
      </h2>
      <SettingSwitch
        label="Marca d'água com o nome do aluno nos vídeos"
        description="Mostra sobre cada vídeo, também em tela cheia, o nome e o CPF parcial (ou o e-mail) de quem assiste, mudando de lugar a cada 15 a 30 segundos. Não impede a gravação da tela, mas identifica quem gravou."
        checked={school.video_watermark}
        onSave={(on) => watermark.mutateAsync(on)}
      />
      {settings.isPending ? (
        <Skeleton className="h-56" />
      ) : settings.isError ? (
        <LoadError title="Não foi possível carregar as configurações dos vídeos" onRetry={settings.refetch} />
      ) : (
        <VideoLimitsForm schoolId={school.id} settings={settings.data} />
      )}
    </section>
  );
}

const asInput = (s: VideoSettings): VideoSettingsInput => ({
  max_screens: String(s.max_screens),
  sharing_max_devices: String(s.sharing_max_devices),
  sharing_max_networks: String(s.sharing_max_networks),
});

function VideoLimitsForm({ schoolId, settings }: { schoolId: string; settings: VideoSettings }) {
  const save = useSaveVideoSettings(schoolId);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = useForm<VideoSettingsInput, unknown, VideoSettingsValues>({ resolver: zodResolver(videoSettingsSchema), defaultValues: asInput(settings) });
  useUnsavedChanges(isDirty);
  return (
    <form
      noValidate
      aria-label="Limites dos vídeos"
      className="grid gap-4 border-t border-border pt-4"
      onSubmit={handleSubmit((v) => save.mutate(v, { onSuccess: (saved) => reset(asInput(saved)) }))}
    >
      <FormField
        label="Telas simultâneas"
        hint="Em quantos dispositivos a mesma conta pode assistir aos vídeos protegidos ao mesmo tempo. Quem passar disso vê uma mensagem e pode encerrar o dispositivo mais antigo para assistir ali. De 1 a 10. Padrão: 2."
        error={errors.max_screens?.message}
      >
        <Input type="number" inputMode="numeric" min={1} max={10} step={1} className="sm:max-w-xs" {...register('max_screens')} />
      </FormField>
      <fieldset className="grid gap-4">
        <legend className="mb-1 text-sm font-medium">Compartilhamento suspeito</legend>
        <p className="text-xs text-muted-foreground">
          O relatório "Compartilhamento suspeito" lista as contas vistas, nos últimos 7 dias, em mais dispositivos ou em mais redes do que estes limites.
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField
            label="Dispositivos em 7 dias"
            hint="Computadores, celulares e tablets diferentes em que a conta assistiu. De 2 a 50. Padrão: 4."
            error={errors.sharing_max_devices?.message}
            className="content-start"
          >
            <Input type="number" inputMode="numeric" min={2} max={50} step={1} {...register('sharing_max_devices')} />
          </FormField>
          <FormField
            label="Redes em 7 dias"
            hint="Conexões de internet diferentes (casa, trabalho, dados do celular). Um celular pode mudar de rede ao longo da semana. De 2 a 50. Padrão: 5."
            error={errors.sharing_max_networks?.message}
            className="content-start"
          >
            <Input type="number" inputMode="numeric" min={2} max={50} step={1} {...register('sharing_max_networks')} />
          </FormField>
        </div>
      </fieldset>
      <Button type="submit" className="w-fit" disabled={save.isPending}>
        {save.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
        Salvar
      </Button>
    </form>
  );
}

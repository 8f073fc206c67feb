// Settings → Comentários e ranking (issue 26): whether the students' comments wait for the staff's
// approval before the other students see them, and whether the home shows the students' ranking of
// the month. One row per school (school_discussion_settings); none yet = both off.
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { useDiscussionSettings, useSaveDiscussionSettings } from '../api/hooks';
import { discussionSettingsSchema, type DiscussionSettingsValues } from '../schemas';

const SWITCHES: { name: keyof DiscussionSettingsValues; label: string; help: string }[] = [
  {
    name: 'comments_require_approval',
    label: 'Aprovar comentários antes de publicar',
    help: 'Os comentários novos dos alunos ficam em "Comentários" aguardando aprovação; só o autor e a equipe os veem até serem aprovados. Desligado, eles aparecem na hora.',
  },
  {
    name: 'ranking_enabled',
    label: 'Ranking dos alunos',
    help: 'Mostra na página inicial os 10 alunos com mais pontos no mês (aulas concluídas, avaliações aprovadas e respostas marcadas pela equipe). Cada aluno pode sair do ranking no perfil.',
  },
];

export function DiscussionSettingsCard({ schoolId }: { schoolId: string }) {
  const settings = useDiscussionSettings(schoolId);
  const save = useSaveDiscussionSettings(schoolId);
  const { control, handleSubmit, reset } = useForm<DiscussionSettingsValues>({
    resolver: zodResolver(discussionSettingsSchema),
    defaultValues: { comments_require_approval: false, ranking_enabled: false },
  });
  useEffect(() => {
    if (settings.data) reset(settings.data);
  }, [settings.data, reset]);

  return (
    <section className="grid gap-4 rounded-xl border border-border bg-white p-4 sm:p-6" aria-labelledby="settings-discussions">
      <div>
        <h2 id="settings-discussions" className="text-lg font-semibold">
          Comentários e ranking
        </h2>
        <p className="text-sm text-muted-foreground">Como os comentários dos alunos nas aulas são publicados, e o ranking do mês na página inicial.</p>
      </div>
      {settings.isPending ? (
        <Skeleton className="h-32" />
      ) : settings.isError ? (
        <LoadError title="Não foi possível carregar as configurações de comentários" onRetry={settings.refetch} />
      ) : (
        <form noValidate aria-label="Comentários e ranking" className="grid gap-4" onSubmit={handleSubmit((v) => save.mutate(v))}>
          {SWITCHES.map((s) => (
            <Controller
              key={s.name}
              control={control}
              name={s.name}
              render={({ field }) => (
                <div className="flex items-start gap-3">
                  <Switch
                    id={`discussion-${s.name}`}
                    className="mt-0.5"
                    checked={field.value}
                    onCheckedChange={field.onChange}
                    onBlur={field.onBlur}
                    aria-describedby={`discussion-${s.name}-help`}
                  />
                  <div className="grid min-w-0 gap-1">
                    <Label htmlFor={`discussion-${s.name}`}>{s.label}</Label>
                    <p id={`discussion-${s.name}-help`} className="text-xs text-muted-foreground">
                      {s.help}
                    </p>
                  </div>
                </div>
              )}
            />
          ))}
          <Button type="submit" className="w-fit" disabled={save.isPending}>
            {save.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
            Salvar
          </Button>
        </form>
      )}
    </section>
  );
}

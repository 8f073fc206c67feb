// Settings → Comentários e ranking (issue 26): whether the students' comments wait for the staff's
// approval before the other students see them, and whether the home shows the students' ranking of
// the month, counted among the student's turma mates when "Ranking por turma" is on, and whether a turma's
// students discuss apart ("Discussões por turma", issue 40). One row per school (school_discussion_settings);
// none yet = all off. Each switch saves at once and says "Salvo" (docs/conventions.md, "Settings").
import { LoadError } from '@/components/ui/load-error';
import { SettingSwitch } from '@/components/ui/setting-switch';
import { Skeleton } from '@/components/ui/skeleton';
import { useDiscussionSettings, useSaveDiscussionSetting } from '../api/hooks';
import type { DiscussionSettings } from '../api/queries';

const SWITCHES: { name: keyof DiscussionSettings; label: string; help: string }[] = [
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
  {
    name: 'ranking_by_turma',
    label: 'Ranking por turma',
    help: 'Cada aluno vê o ranking só entre os colegas da turma dele; quem não está em nenhuma turma não vê ranking.',
  },
  {
    name: 'discussions_by_turma',
    label: 'Discussões por turma',
    help: 'Os comentários de um aluno de turma ficam só para a turma dele e a equipe; em "Comentários" você filtra por turma. Alunos sem turma e as perguntas da equipe continuam valendo para o curso todo. Desligar não abre o que já foi escrito para uma turma.',
  },
];

export function DiscussionSettingsCard({ schoolId }: { schoolId: string }) {
  const settings = useDiscussionSettings(schoolId);
  const save = useSaveDiscussionSetting(schoolId);

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
        <div className="grid gap-4">
          {SWITCHES.map((s) => (
            <SettingSwitch
              key={s.name}
              id={`discussion-${s.name}`}
              label={s.label}
              description={s.help}
              checked={settings.data[s.name]}
              onSave={(on) => save.mutateAsync({ [s.name]: on })}
            />
          ))}
        </div>
      )}
    </section>
  );
}

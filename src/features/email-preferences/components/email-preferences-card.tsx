// Profile → "Preferências de e-mail" (issue 22): the student turns each optional kind of e-mail on or
// off; the same switches the e-mails' "Descadastrar" link turns off. Each switch saves at once and says
// "Salvo" (docs/conventions.md, "Settings").
import { LoadError } from '@/components/ui/load-error';
import { SettingSwitch } from '@/components/ui/setting-switch';
import { Skeleton } from '@/components/ui/skeleton';
import { useMyUnsubscribes, useSetKindWanted } from '../api/hooks';
import { OPTIONAL_EMAIL_KINDS, OPTIONAL_KIND_LIST } from '../api/queries';

export function EmailPreferencesCard({ userId }: { userId: string }) {
  const stopped = useMyUnsubscribes(userId);
  const setWanted = useSetKindWanted(userId);
  return (
    <section className="grid gap-4 rounded-xl border border-border bg-white p-4 sm:p-6" aria-labelledby="profile-emails">
      <div>
        <h2 id="profile-emails" className="text-lg font-semibold">
          Preferências de e-mail
        </h2>
        <p className="text-sm text-muted-foreground">
          Escolha os e-mails que quer receber da escola; cada opção é salva assim que você a muda. Os de acesso e de pagamento são sempre enviados.
        </p>
      </div>
      {stopped.isPending ? (
        <Skeleton className="h-32" />
      ) : stopped.isError ? (
        <LoadError title="Não foi possível carregar suas preferências" onRetry={stopped.refetch} />
      ) : (
        <div className="grid gap-3">
          {OPTIONAL_KIND_LIST.map((kind) => (
            <SettingSwitch
              key={kind}
              id={`email-pref-${kind}`}
              label={OPTIONAL_EMAIL_KINDS[kind]}
              checked={!stopped.data.includes(kind)}
              onSave={(wanted) => setWanted.mutateAsync({ kind, wanted })}
            />
          ))}
        </div>
      )}
    </section>
  );
}

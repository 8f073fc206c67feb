// Profile → "Preferências de e-mail" (issue 22): the student turns each optional kind of e-mail on or
// off; the same switches the e-mails' "Descadastrar" link turns off.
import { Label } from '@/components/ui/label';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
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
        <p className="text-sm text-muted-foreground">Escolha os e-mails que quer receber da escola. Os de acesso e de pagamento são sempre enviados.</p>
      </div>
      {stopped.isPending ? (
        <Skeleton className="h-32" />
      ) : stopped.isError ? (
        <LoadError title="Não foi possível carregar suas preferências" onRetry={stopped.refetch} />
      ) : (
        <div className="grid gap-3">
          {OPTIONAL_KIND_LIST.map((kind) => (
            <div key={kind} className="flex items-center gap-3">
              <Switch
                id={`email-pref-${kind}`}
                checked={!stopped.data.includes(kind)}
                disabled={setWanted.isPending}
                onCheckedChange={(wanted) => setWanted.mutate({ kind, wanted })}
              />
              <Label htmlFor={`email-pref-${kind}`}>{OPTIONAL_EMAIL_KINDS[kind]}</Label>
            </div>
          ))}
        </div>
      )}
    </section>
  );
}

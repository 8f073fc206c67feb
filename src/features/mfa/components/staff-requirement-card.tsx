import { useId } from 'react';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { useStaffRequirement } from '../api/hooks';

/**
 * School settings: "Exigir verificação em duas etapas da equipe". Only the school's admin (or the super
 * admin) changes it, from a session that gave its own code (the database refuses anything else).
 */
export function StaffRequirementCard({ schoolId, required, canChange }: { schoolId: string; required: boolean; canChange: boolean }) {
  const id = useId();
  const update = useStaffRequirement(schoolId);
  return (
    <section className="grid gap-3 rounded-xl border border-border bg-white p-4 sm:p-6" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        Segurança da equipe
      </h2>
      <div className="flex items-start justify-between gap-4">
        <div className="grid gap-1">
          <Label htmlFor={`${id}-switch`}>Exigir verificação em duas etapas da equipe</Label>
          <p id={`${id}-hint`} className="text-sm text-muted-foreground">
            Administradores, instrutores e equipe só usam a área administrativa depois de ativar o aplicativo autenticador e digitar o código ao entrar.
            {!canChange && ' Ative a verificação em duas etapas no seu Perfil para mudar esta opção.'}
          </p>
        </div>
        <Switch
          id={`${id}-switch`}
          aria-describedby={`${id}-hint`}
          checked={required}
          disabled={!canChange || update.isPending}
          onCheckedChange={(on) => update.mutate(on)}
        />
      </div>
    </section>
  );
}

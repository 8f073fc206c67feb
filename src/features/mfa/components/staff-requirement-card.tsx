import { useId } from 'react';
import { SettingSwitch } from '@/components/ui/setting-switch';
import { useStaffRequirement } from '../api/hooks';

/**
 * School settings: "Exigir verificação em duas etapas da equipe". Only the school's admin (or the super
 * admin) changes it, from a session that gave its own code (the database refuses anything else). It
 * saves at once and says "Salvo" (docs/conventions.md, "Settings").
 */
export function StaffRequirementCard({ schoolId, required, canChange }: { schoolId: string; required: boolean; canChange: boolean }) {
  const id = useId();
  const update = useStaffRequirement(schoolId);
  return (
    <section className="grid gap-3 rounded-xl border border-border bg-white p-4 sm:p-6" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        Segurança da equipe
      </h2>
      <SettingSwitch
        label="Exigir verificação em duas etapas da equipe"
        description={
          <>
            Administradores, instrutores e equipe só usam a área administrativa depois de ativar o aplicativo autenticador e digitar o código ao entrar.
            {!canChange && ' Ative a verificação em duas etapas no seu Perfil para mudar esta opção.'}
          </>
        }
        checked={required}
        disabled={!canChange}
        onSave={(on) => update.mutateAsync(on)}
      />
    </section>
  );
}

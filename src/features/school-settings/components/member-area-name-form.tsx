import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { useUnsavedChanges } from '@/components/ui/unsaved-changes';
import type { SchoolRow } from '@/platform/session';
import { useUpdateSchool } from '../api/hooks';
import { memberAreaNameSchema, type MemberAreaNameValues } from '../schemas';

/** Settings: the member-area name shown in the header, the login page and the sidebar. */
export function MemberAreaNameForm({ school }: { school: SchoolRow }) {
  const update = useUpdateSchool(school.id, { success: 'Área de membros atualizada!', errorTitle: 'Erro ao atualizar' });
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = useForm<MemberAreaNameValues>({ resolver: zodResolver(memberAreaNameSchema), defaultValues: { member_area_name: school.member_area_name ?? '' } });
  useUnsavedChanges(isDirty);
  return (
    <section className="grid gap-4 rounded-xl border border-border bg-white p-4 sm:p-6" aria-labelledby="settings-member-area">
      <div>
        <h2 id="settings-member-area" className="text-lg font-semibold">
          Área de membros
        </h2>
        <p className="text-sm text-muted-foreground">O nome que os alunos veem no topo da plataforma e na tela de login.</p>
      </div>
      <form
        noValidate
        aria-label="Nome da área de membros"
        className="grid gap-4 sm:grid-cols-[1fr_auto] sm:items-start"
        onSubmit={handleSubmit((v) => update.mutate({ member_area_name: v.member_area_name }, { onSuccess: () => reset(v) }))}
      >
        <FormField label="Nome da área de membros" error={errors.member_area_name?.message}>
          <Input {...register('member_area_name')} />
        </FormField>
        <Button type="submit" className="sm:mt-6" disabled={update.isPending}>
          {update.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          Salvar
        </Button>
      </form>
    </section>
  );
}

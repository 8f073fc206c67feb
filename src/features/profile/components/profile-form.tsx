import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { MaskedField } from '@/components/ui/masked-field';
import { Textarea } from '@/components/ui/textarea';
import { useUnsavedChanges } from '@/components/ui/unsaved-changes';
import { maskCpf, maskPhone } from '@/utils/format';
import type { ProfileRow } from '@/platform/session';
import { profileSchema, type ProfileValues } from '../schemas';

export interface ProfileFormProps {
  profile: Pick<ProfileRow, 'name' | 'phone' | 'cpf' | 'address'>;
  email?: string | null;
  pending?: boolean;
  /** Saves; resolves once saved (the form is then clean), rejects when not (the error toast says why). */
  onSubmit: (values: ProfileValues) => Promise<unknown>;
}

export function ProfileForm({ profile, email, pending, onSubmit }: ProfileFormProps) {
  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = useForm<ProfileValues>({
    resolver: zodResolver(profileSchema),
    values: {
      name: profile.name ?? '',
      phone: maskPhone(profile.phone ?? ''),
      cpf: maskCpf(profile.cpf ?? ''),
      address: profile.address ?? '',
    },
    resetOptions: { keepDirtyValues: true },
  });
  useUnsavedChanges(isDirty);
  const save = handleSubmit(async (values) => {
    try {
      await onSubmit(values);
      reset(values);
    } catch {
      // Not saved: what was typed stays, and so does the question before leaving.
    }
  });

  return (
    <form noValidate onSubmit={save} className="grid gap-5" aria-label="Dados pessoais">
      <FormField label="Nome Completo" error={errors.name?.message} required>
        <Input autoComplete="name" {...register('name')} />
      </FormField>
      {email && (
        <FormField label="Email" hint="O email de acesso não pode ser alterado aqui.">
          <Input type="email" value={email} readOnly disabled />
        </FormField>
      )}
      <div className="grid gap-5 sm:grid-cols-2">
        <MaskedField kind="phone" control={control} name="phone" error={errors.phone?.message} autoComplete="tel-national" />
        <MaskedField kind="cpf" control={control} name="cpf" error={errors.cpf?.message} />
      </div>
      <FormField label="Endereço" error={errors.address?.message}>
        <Textarea rows={3} autoComplete="street-address" placeholder="Rua, número, bairro, cidade - UF" {...register('address')} />
      </FormField>
      <div className="flex justify-end">
        <Button type="submit" disabled={pending} className="w-full sm:w-auto">
          {pending && <Loader2 className="animate-spin" aria-hidden="true" />}
          {pending ? 'Salvando...' : 'Salvar Alterações'}
        </Button>
      </div>
    </form>
  );
}

import { useForm } from 'react-hook-form';
import { Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { useSignUp } from '../api/auth';
import { emailRules, nameRules, newPasswordRules, type SignUpValues } from '../rules';

export function SignUpForm({ schoolId, schoolSlug }: { schoolId?: string; schoolSlug?: string }) {
  const signUp = useSignUp(schoolId, schoolSlug);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<SignUpValues>({ defaultValues: { name: '', email: '', password: '' } });

  return (
    <form noValidate onSubmit={handleSubmit((v) => signUp.mutate({ name: v.name.trim(), email: v.email.trim(), password: v.password }))} className="grid gap-4" aria-label="Criar Conta">
      <FormField label="Nome Completo" error={errors.name?.message}>
        <Input autoComplete="name" placeholder="Seu nome completo" {...register('name', nameRules)} />
      </FormField>
      <FormField label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" inputMode="email" placeholder="seu@email.com" {...register('email', emailRules)} />
      </FormField>
      <FormField label="Senha" error={errors.password?.message} hint="Mínimo de 6 caracteres">
        <Input type="password" autoComplete="new-password" placeholder="••••••" {...register('password', newPasswordRules)} />
      </FormField>
      <Button type="submit" size="lg" className="mt-1 w-full" disabled={signUp.isPending}>
        {signUp.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
        {signUp.isPending ? 'Criando conta...' : 'Criar Conta'}
      </Button>
    </form>
  );
}

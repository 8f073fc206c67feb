import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { useSignUp } from '../api/auth';
import { signUpSchema, type SignUpValues } from '../schemas';

export function SignUpForm({ schoolId, schoolSlug }: { schoolId?: string; schoolSlug?: string }) {
  const signUp = useSignUp(schoolId, schoolSlug);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<SignUpValues>({ resolver: zodResolver(signUpSchema), defaultValues: { name: '', email: '', password: '' } });

  return (
    <form noValidate onSubmit={handleSubmit((values) => signUp.mutate(values))} className="grid gap-4" aria-label="Criar Conta">
      <FormField label="Nome Completo" error={errors.name?.message}>
        <Input autoComplete="name" placeholder="Seu nome completo" {...register('name')} />
      </FormField>
      <FormField label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" inputMode="email" placeholder="seu@email.com" {...register('email')} />
      </FormField>
      <FormField label="Senha" error={errors.password?.message} hint="Mínimo de 6 caracteres">
        <Input type="password" autoComplete="new-password" placeholder="••••••" {...register('password')} />
      </FormField>
      <Button type="submit" size="lg" className="mt-1 w-full" disabled={signUp.isPending}>
        {signUp.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
        {signUp.isPending ? 'Criando conta...' : 'Criar Conta'}
      </Button>
    </form>
  );
}

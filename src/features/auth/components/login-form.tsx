import { useForm } from 'react-hook-form';
import { Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { useSignIn } from '../api/auth';
import { emailRules, loginPasswordRules, type LoginValues } from '../rules';

export function LoginForm({ schoolSlug }: { schoolSlug?: string }) {
  const signIn = useSignIn(schoolSlug);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginValues>({ defaultValues: { email: '', password: '' } });

  return (
    <form noValidate onSubmit={handleSubmit((v) => signIn.mutate({ email: v.email.trim(), password: v.password }))} className="grid gap-4" aria-label="Login">
      <FormField label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" inputMode="email" placeholder="seu@email.com" {...register('email', emailRules)} />
      </FormField>
      <FormField label="Senha" error={errors.password?.message}>
        <Input type="password" autoComplete="current-password" placeholder="••••••" {...register('password', loginPasswordRules)} />
      </FormField>
      <Button type="submit" size="lg" className="mt-1 w-full" disabled={signIn.isPending}>
        {signIn.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
        {signIn.isPending ? 'Entrando...' : 'Entrar'}
      </Button>
    </form>
  );
}

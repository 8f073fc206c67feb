import { lazy, Suspense, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { useSignIn } from '../api/auth';
import { emailRules, loginPasswordRules, type LoginValues } from '../rules';

// Few visitors need it: the dialog and its request load on the first click (or hover) only.
const loadForgotPassword = () => import('./forgot-password-dialog');
const ForgotPasswordDialog = lazy(() => loadForgotPassword().then((m) => ({ default: m.ForgotPasswordDialog })));

export function LoginForm({ schoolSlug }: { schoolSlug?: string }) {
  const signIn = useSignIn(schoolSlug);
  const [forgotEmail, setForgotEmail] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors },
  } = useForm<LoginValues>({ defaultValues: { email: '', password: '' } });

  return (
    <>
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
        <Button
          type="button"
          variant="link"
          className="-mt-2 h-9 justify-self-center px-2"
          onPointerEnter={() => void loadForgotPassword()}
          onFocus={() => void loadForgotPassword()}
          onClick={() => setForgotEmail(getValues('email'))}
        >
          Esqueci minha senha
        </Button>
      </form>
      {forgotEmail !== null && (
        <Suspense fallback={null}>
          <ForgotPasswordDialog open schoolSlug={schoolSlug} defaultEmail={forgotEmail} onOpenChange={(open) => !open && setForgotEmail(null)} />
        </Suspense>
      )}
    </>
  );
}

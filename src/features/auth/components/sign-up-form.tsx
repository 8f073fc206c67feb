import { useForm } from 'react-hook-form';
import { Loader2, MailCheck } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { useSignUp } from '../api/sign-up';
import { confirmationSentMessage, useResendConfirmation } from '../api/confirmation';
import { emailRules, nameRules, newPasswordRules, type SignUpValues } from '../rules';

export function SignUpForm({ schoolId, schoolSlug }: { schoolId?: string; schoolSlug?: string }) {
  const signUp = useSignUp(schoolId, schoolSlug);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<SignUpValues>({ defaultValues: { name: '', email: '', password: '' } });

  // No session yet: the account waits for its owner to open the e-mailed link.
  if (signUp.data && !signUp.data.signedIn) {
    return <ConfirmationSent email={signUp.data.email} schoolSlug={schoolSlug} onBack={() => signUp.reset()} />;
  }

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

/** After Criar Conta: where the confirmation link went, and a way to ask for it again. */
function ConfirmationSent({ email, schoolSlug, onBack }: { email: string; schoolSlug?: string; onBack: () => void }) {
  const resend = useResendConfirmation(schoolSlug);
  return (
    <section aria-labelledby="confirmation-sent-title" className="grid gap-4 py-2 text-center">
      <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary" aria-hidden="true">
        <MailCheck className="size-6" />
      </span>
      <h2 id="confirmation-sent-title" className="text-lg font-semibold">
        Confirme seu e-mail
      </h2>
      <p role="status" className="text-sm text-foreground [overflow-wrap:anywhere]">
        {confirmationSentMessage(email)}
      </p>
      <p className="text-sm text-muted-foreground">Não chegou? Veja também a caixa de spam ou peça outro e-mail.</p>
      <Button type="button" variant="outline" className="w-full" disabled={resend.isPending} onClick={() => resend.mutate(email)}>
        {resend.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
        Reenviar e-mail
      </Button>
      <Button type="button" variant="link" className="h-9 justify-self-center px-2" onClick={onBack}>
        Usar outro e-mail
      </Button>
    </section>
  );
}

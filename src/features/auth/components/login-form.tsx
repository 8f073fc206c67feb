// The login form. hand-held form: its two fields keep their own state and rules (../rules.ts) instead
// of react-hook-form + zod (~20 KB gzip), which would not fit the first route's budget (bench:bundle).
import { lazy, Suspense, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { isNotConfirmed, useSignIn } from '../api/auth';
import { emailRules, firstError, loginPasswordRules, type LoginValues } from '../rules';

// Few visitors need it: the dialog and its request load on the first click (or hover) only.
const loadForgotPassword = () => import('./forgot-password-dialog');
const ForgotPasswordDialog = lazy(() => loadForgotPassword().then((m) => ({ default: m.ForgotPasswordDialog })));
// Only an account whose e-mail is not confirmed yet sees it (after the server said so).
const NotConfirmedNotice = lazy(() => import('./not-confirmed-notice').then((m) => ({ default: m.NotConfirmedNotice })));

type LoginErrors = Partial<Record<keyof LoginValues, string>>;

function validate(values: LoginValues): LoginErrors {
  const errors: LoginErrors = {};
  const email = firstError(values.email, emailRules);
  const password = firstError(values.password, loginPasswordRules);
  if (email) errors.email = email;
  if (password) errors.password = password;
  return errors;
}

/**
 * Two fields on the first download: plain React state, checked with the same rules (and the same
 * behaviour: messages on submit, then as the user types, focus on the first wrong field) as the
 * react-hook-form forms elsewhere, without their library on the login page.
 */
export function LoginForm({ schoolSlug }: { schoolSlug?: string }) {
  const signIn = useSignIn(schoolSlug);
  const [forgotEmail, setForgotEmail] = useState<string | null>(null);
  const [values, setValues] = useState<LoginValues>({ email: '', password: '' });
  const [errors, setErrors] = useState<LoginErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const change = (field: keyof LoginValues) => (e: ChangeEvent<HTMLInputElement>) => {
    const next = { ...values, [field]: e.target.value };
    setValues(next);
    if (submitted) setErrors(validate(next));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    const found = validate(values);
    setErrors(found);
    if (found.email) emailRef.current?.focus();
    else if (found.password) passwordRef.current?.focus();
    else signIn.mutate({ email: values.email.trim(), password: values.password });
  };

  return (
    <>
      <form noValidate onSubmit={submit} className="grid gap-4" aria-label="Login">
        <FormField label="Email" error={errors.email}>
          <Input ref={emailRef} name="email" type="email" autoComplete="email" inputMode="email" placeholder="seu@email.com" value={values.email} onChange={change('email')} />
        </FormField>
        <FormField label="Senha" error={errors.password}>
          <Input ref={passwordRef} name="password" type="password" autoComplete="current-password" placeholder="••••••" value={values.password} onChange={change('password')} />
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
          onClick={() => setForgotEmail(values.email)}
        >
          Esqueci minha senha
        </Button>
      </form>
      {isNotConfirmed(signIn.error) && signIn.variables && (
        <Suspense fallback={null}>
          <NotConfirmedNotice email={signIn.variables.email} schoolSlug={schoolSlug} />
        </Suspense>
      )}
      {forgotEmail !== null && (
        <Suspense fallback={null}>
          <ForgotPasswordDialog open schoolSlug={schoolSlug} defaultEmail={forgotEmail} onOpenChange={(open) => !open && setForgotEmail(null)} />
        </Suspense>
      )}
    </>
  );
}


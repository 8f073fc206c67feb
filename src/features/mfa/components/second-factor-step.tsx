import { ShieldCheck } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useSession } from '@/platform/session';
import { useSecondFactorSignIn } from '../api/hooks';
import { CodeForm } from './code-form';

/** The sign-in's second step for an account with two-factor on: the session is not complete before it. */
export function SecondFactorStep() {
  const verify = useSecondFactorSignIn();
  const { user, signOut } = useSession();
  return (
    <div className="grid min-w-0 gap-4">
      <div className="flex min-w-0 flex-col items-center gap-2 text-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary" aria-hidden="true">
          <ShieldCheck className="size-6" />
        </span>
        <h2 className="text-lg font-semibold">Verificação em duas etapas</h2>
        <p className="text-sm text-muted-foreground">Digite o código do seu aplicativo autenticador</p>
        {user?.email && <p className="max-w-full text-xs break-all text-muted-foreground">{user.email}</p>}
      </div>
      <CodeForm label="Verificação em duas etapas" submitLabel="Verificar" pendingLabel="Verificando..." pending={verify.isPending} onSubmit={(code) => verify.mutateAsync(code)} />
      <Button variant="link" className="justify-self-center" onClick={() => void signOut()}>
        Entrar com outra conta
      </Button>
    </div>
  );
}

// /acesso#token=…: where the "Acesso liberado" e-mail leads (issue 22). One button spends the link (so a
// mail scanner that only opens it spends nothing) and the platform's recovery flow asks for the password
// on the school's login page. A used, expired or mangled link says so and offers a new one.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { KeyRound, MailCheck } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { deadLinkOf, readAccessToken, useRedeemAccessLink, useResendAccessLink } from '../api/access-link';

const DEAD_TITLE = { used: 'Este link já foi usado.', expired: 'Este link expirou.', invalid: 'Link inválido' } as const;

export function AccessLinkPage() {
  const [token] = useState(readAccessToken);
  const redeem = useRedeemAccessLink();
  const resend = useResendAccessLink();
  const dead = token ? deadLinkOf(redeem.error) : 'invalid';
  const otherError = redeem.isError && !dead ? redeem.error.message : null;
  // A dead link knows its school: back to that school's login page rather than the generic one.
  const slug = (redeem.error as { body?: { school_slug?: unknown } } | null)?.body?.school_slug;
  const loginHref = typeof slug === 'string' && /^[a-z0-9-]+$/.test(slug) ? `/${slug}` : '/auth';

  return (
    <main className="flex min-h-dvh items-center justify-center bg-background p-4">
      <Card className="w-full max-w-md">
        <CardHeader className="items-center text-center">
          <span className="mb-2 flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary" aria-hidden="true">
            {resend.isSuccess ? <MailCheck className="size-6" /> : <KeyRound className="size-6" />}
          </span>
          <h1 className="text-xl font-semibold">{resend.isSuccess ? 'Enviamos um novo link' : dead ? DEAD_TITLE[dead] : 'Crie sua senha'}</h1>
          <CardDescription>
            {resend.isSuccess
              ? 'Confira sua caixa de entrada: o novo link vale por 7 dias.'
              : dead === 'invalid'
                ? 'Verifique se você abriu o link completo do e-mail, ou peça à sua escola um novo acesso.'
                : dead
                  ? 'Peça um novo link: enviaremos para o seu e-mail.'
                  : 'Seu acesso foi liberado. Crie a senha que você vai usar para entrar na área de membros.'}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          {otherError && (
            <p role="alert" className="rounded-lg border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm font-medium text-destructive">
              {otherError}
            </p>
          )}
          {resend.isError && (
            <p role="alert" className="rounded-lg border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm font-medium text-destructive">
              {resend.error.message}
            </p>
          )}
          {!dead && !resend.isSuccess && (
            <Button onClick={() => token && redeem.mutate(token)} disabled={redeem.isPending || redeem.isSuccess}>
              {(redeem.isPending || redeem.isSuccess) && <Spinner className="size-4" />}
              Criar minha senha
            </Button>
          )}
          {(dead === 'used' || dead === 'expired') && !resend.isSuccess && (
            <Button onClick={() => token && resend.mutate(token)} disabled={resend.isPending}>
              {resend.isPending && <Spinner className="size-4" />}
              Enviar novo link
            </Button>
          )}
          <Button asChild variant="outline">
            <Link to={loginHref}>Ir para o login</Link>
          </Button>
        </CardContent>
      </Card>
    </main>
  );
}

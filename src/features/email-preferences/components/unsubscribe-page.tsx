// /descadastrar#token=…: the "Descadastrar" link of an optional e-mail (issue 22). Opening it stops that
// kind of e-mail for that student, signed in or not: the one click the link promises. The token is in
// the fragment (never sent to a server by the browser, and gone from the address bar once read).
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { MailX } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { readFragmentToken } from '@/lib/fragment-token';
import { useUnsubscribeByToken } from '../api/hooks';
import { OPTIONAL_EMAIL_KINDS } from '../api/queries';

/** '<user id>.<kind>.<HMAC>' (public.email_unsubscribe_token); the database checks the rest. */
const readToken = () => readFragmentToken(/^[0-9a-f-]{36}\.[a-z_]{1,40}\.[0-9a-f]{64}$/);

export function UnsubscribePage() {
  const [token] = useState(readToken);
  const unsubscribe = useUnsubscribeByToken();
  const { mutate } = unsubscribe;
  useEffect(() => {
    if (token) mutate(token);
  }, [token, mutate]);
  const kind = unsubscribe.data ? OPTIONAL_EMAIL_KINDS[unsubscribe.data] : null;
  const failed = !token || unsubscribe.isError;

  return (
    <main className="flex min-h-dvh items-center justify-center bg-background p-4">
      <Card className="w-full max-w-md">
        <CardHeader className="items-center text-center">
          <span className="mb-2 flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground" aria-hidden="true">
            <MailX className="size-6" />
          </span>
          <h1 className="text-xl font-semibold">{failed ? 'Link inválido' : kind ? 'Pronto, descadastrado' : 'Descadastrando...'}</h1>
          <CardDescription>
            {failed
              ? 'Abra o link completo do e-mail. Se estiver conectado, você também pode escolher os e-mails no seu perfil.'
              : kind
                ? `Você não vai mais receber os e-mails de "${kind}". Para voltar a recebê-los, use "Preferências de e-mail" no seu perfil.`
                : 'Só um instante.'}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          {unsubscribe.isPending && (
            <div className="flex justify-center">
              <Spinner className="size-6" />
            </div>
          )}
          <Button asChild variant="outline">
            <Link to="/profile">Ir para o meu perfil</Link>
          </Button>
        </CardContent>
      </Card>
    </main>
  );
}

// /descadastrar#token=…: the "Descadastrar" link of an optional e-mail (issues 22 and 46), signed in or
// not. Opening it changes nothing (a link scanner, or a tap by mistake, stops no e-mail): the page asks
// first, and once the student confirms it offers "Desfazer". The token is in the fragment (never sent to a
// server by the browser, and gone from the address bar once read); the kind it stops is part of it.
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Loader2, MailX } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { describeError } from '@/platform/errors';
import { readFragmentToken } from '@/utils/fragment-token';
import { useResubscribeByToken, useUnsubscribeByToken } from '../api/hooks';
import { isInvalidLinkError, OPTIONAL_EMAIL_KINDS, type OptionalEmailKind } from '../api/queries';

/** '<user id>.<kind>.<HMAC>' (public.email_unsubscribe_token); the database checks the rest. */
const readToken = () => readFragmentToken(/^[0-9a-f-]{36}\.[a-z_]{1,40}\.[0-9a-f]{64}$/);
/** A heading's "e-mails" never breaks at its hyphen ("e-" at a line's end, "mails?" below, at 412 px). */
const unbroken = (text: string) => text.split(/(e-mails)/).map((part, i) => (i % 2 ? <span key={i} className="whitespace-nowrap">{part}</span> : part));
const kindOf = (token: string | null) => {
  const kind = token?.split('.')[1];
  return kind && kind in OPTIONAL_EMAIL_KINDS ? (kind as OptionalEmailKind) : null;
};

export function UnsubscribePage() {
  const [token] = useState(readToken);
  const kind = kindOf(token);
  const unsubscribe = useUnsubscribeByToken();
  const resubscribe = useResubscribeByToken();
  const [stopped, setStopped] = useState(false);
  // The button pressed goes away with the answer: the new heading takes the focus and is read out.
  const heading = useRef<HTMLHeadingElement>(null);
  const answered = unsubscribe.isSuccess || resubscribe.isSuccess;
  useEffect(() => {
    if (answered) heading.current?.focus();
  }, [stopped, answered]);

  const failure = unsubscribe.error ?? resubscribe.error;
  const invalid = !token || !kind || isInvalidLinkError(failure);
  const label = kind ? OPTIONAL_EMAIL_KINDS[kind] : '';
  const pending = unsubscribe.isPending || resubscribe.isPending;
  const stop = () => unsubscribe.mutate(token!, { onSuccess: () => setStopped(true) });
  const undo = () => resubscribe.mutate(token!, { onSuccess: () => setStopped(false) });

  const title = invalid
    ? 'Link inválido'
    : stopped
      ? 'Pronto: estes e-mails não vão mais chegar'
      : resubscribe.isSuccess
        ? 'Você vai continuar recebendo estes e-mails'
        : 'Parar de receber estes e-mails?';
  const text = invalid
    ? 'Abra o link completo do e-mail. Se estiver conectado, você também pode escolher os e-mails no seu perfil.'
    : stopped
      ? `Você não vai mais receber os e-mails de "${label}". Se foi sem querer, desfaça abaixo.`
      : resubscribe.isSuccess
        ? `Os e-mails de "${label}" voltam a chegar normalmente.`
        : `Você vai deixar de receber os e-mails de "${label}" da escola. Os e-mails de acesso e de pagamento continuam chegando.`;

  return (
    <main className="flex min-h-dvh items-center justify-center bg-background p-4">
      <Card className="w-full max-w-md">
        <CardHeader className="items-center text-center">
          <span className="mb-2 flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground" aria-hidden="true">
            <MailX className="size-6" />
          </span>
          <h1 ref={heading} tabIndex={-1} className="text-xl font-semibold outline-none">
            {unbroken(title)}
          </h1>
          <CardDescription>{text}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          {failure && !invalid && (
            <p role="alert" className="text-center text-sm text-destructive">
              {describeError(failure)}
            </p>
          )}
          {!invalid &&
            (stopped ? (
              <Button onClick={undo} disabled={pending}>
                {pending && <Loader2 className="animate-spin" aria-hidden="true" />}
                Desfazer
              </Button>
            ) : (
              <Button variant={resubscribe.isSuccess ? 'outline' : 'default'} onClick={stop} disabled={pending}>
                {pending && <Loader2 className="animate-spin" aria-hidden="true" />}
                Não quero mais receber estes e-mails
              </Button>
            ))}
          <Button asChild variant="outline">
            <Link to="/profile">Ir para o meu perfil</Link>
          </Button>
        </CardContent>
      </Card>
    </main>
  );
}

import { Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { notConfirmedMessage } from '../api/auth';
import { useResendConfirmation } from '../api/confirmation';

/** Under the login form after GoTrue's email_not_confirmed: the account waits for its link; it can be mailed again. */
export function NotConfirmedNotice({ email, schoolSlug }: { email: string; schoolSlug?: string }) {
  const resend = useResendConfirmation(schoolSlug);
  return (
    <div className="mt-4 grid gap-3 rounded-lg border border-primary/30 bg-primary/5 px-3 py-3 text-sm">
      <p className="[overflow-wrap:anywhere]">{notConfirmedMessage(email)}</p>
      <Button type="button" variant="outline" size="sm" className="justify-self-start" disabled={resend.isPending} onClick={() => resend.mutate(email)}>
        {resend.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
        Reenviar e-mail
      </Button>
    </div>
  );
}

// The student card's e-mail log (issue 22): each message the school sent or is sending this student,
// with its state and, for a failure, the provider's answer; and "Reenviar acesso".
import { Mail } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { EMAIL_KIND_LABELS, type EmailKind } from '@/concepts/email-kinds';
import { formatDateTime } from '@/utils/format';
import { useResendStudentAccess, useStudentEmails } from '../api/hooks';
import { STUDENT_EMAILS_SHOWN, type StudentRow } from '../api/queries';

const STATUS = {
  queued: ['Na fila', 'secondary'],
  sending: ['Enviando', 'secondary'],
  sent: ['Enviado', 'success'],
  failed: ['Falhou', 'destructive'],
  // Its reason passed before it went out (a pending charge paid meanwhile...): the why is in last_error.
  skipped: ['Não enviado', 'secondary'],
} as const;

export function StudentEmailsDialog({ student, onClose }: { student: StudentRow; onClose: () => void }) {
  const emails = useStudentEmails(student.id);
  const resend = useResendStudentAccess();
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>E-mails de {student.name}</DialogTitle>
          <DialogDescription>
            {/* An address has no spaces: it may break anywhere, or it widens the dialog past a phone's screen. */}
            Os {STUDENT_EMAILS_SHOWN} e-mails mais recentes da escola para <span className="break-all">{student.email}</span>.
          </DialogDescription>
        </DialogHeader>
        {emails.isPending ? (
          <Skeleton className="h-40" />
        ) : emails.isError ? (
          <LoadError title="Não foi possível carregar os e-mails" onRetry={emails.refetch} />
        ) : emails.data.length === 0 ? (
          <EmptyState icon={Mail} title="Nenhum e-mail enviado" description="Os e-mails da escola para este aluno aparecem aqui." />
        ) : (
          <ul className="grid max-h-[50vh] gap-2 overflow-y-auto" aria-label="E-mails enviados">
            {emails.data.map((m) => {
              const [label, variant] = STATUS[m.status as keyof typeof STATUS] ?? [m.status, 'secondary'];
              return (
                <li key={m.id} className="grid gap-1 rounded-lg border border-border p-3 text-sm">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <span className="font-medium">{EMAIL_KIND_LABELS[m.kind as EmailKind] ?? m.kind}</span>
                    <Badge variant={variant}>{label}</Badge>
                  </div>
                  <span className="text-xs text-muted-foreground">
                    {m.sent_at ? `Enviado em ${formatDateTime(m.sent_at)}` : `Criado em ${formatDateTime(m.created_at)}`}
                    {m.attempts > 1 ? ` · ${m.attempts} tentativas` : ''}
                  </span>
                  {m.last_error && m.status !== 'sent' && (
                    <span className={`text-xs break-words ${m.status === 'skipped' ? 'text-muted-foreground' : 'text-destructive'}`}>Motivo: {m.last_error}</span>
                  )}
                </li>
              );
            })}
          </ul>
        )}
        <Button variant="outline" className="w-fit" onClick={() => resend.mutate(student.id)} disabled={resend.isPending}>
          <Mail aria-hidden="true" /> Reenviar acesso
        </Button>
      </DialogContent>
    </Dialog>
  );
}

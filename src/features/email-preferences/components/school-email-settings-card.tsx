// Settings → E-mails (issue 22): which optional e-mails the school sends, the sender's name and
// reply-to, a preview of each message with the school's branding, and a warning when the platform has
// no SMTP configured (then every e-mail waits in the outbox). The settings' one behaviour
// (docs/conventions.md, "Settings"): each switch saves at once and says "Salvo"; the sender's fields
// wait for "Salvar", and leaving the page with them unsaved asks first.
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Eye, Loader2, TriangleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { LoadError } from '@/components/ui/load-error';
import { Select } from '@/components/ui/select';
import { SettingSwitch } from '@/components/ui/setting-switch';
import { Skeleton } from '@/components/ui/skeleton';
import { useUnsavedChanges } from '@/components/ui/unsaved-changes';
import { EMAIL_KIND_LABELS, type EmailKind } from '@/concepts/email-kinds';
import { useEmailPreview, useSaveSchoolEmailSender, useSchoolEmailSettings, useSetSchoolEmailKind } from '../api/hooks';
import { OPTIONAL_EMAIL_KINDS, SCHOOL_KIND_LIST, type SchoolEmailSettings } from '../api/queries';
import { schoolEmailSenderSchema, type SchoolEmailSenderValues } from '../schemas';

export function SchoolEmailSettingsCard({ schoolId }: { schoolId: string }) {
  const settings = useSchoolEmailSettings(schoolId);
  const status = useEmailPreview(schoolId, '');
  const setKind = useSetSchoolEmailKind(schoolId);
  const [previewing, setPreviewing] = useState(false);

  return (
    <section className="grid gap-4 rounded-xl border border-border bg-white p-4 sm:p-6" aria-labelledby="settings-emails">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 id="settings-emails" className="text-lg font-semibold">
            E-mails
          </h2>
          <p className="text-sm text-muted-foreground">O que a escola envia aos alunos por e-mail, com o nome e as cores da escola.</p>
        </div>
        <Button type="button" variant="outline" size="sm" onClick={() => setPreviewing(true)}>
          <Eye aria-hidden="true" /> Pré-visualizar
        </Button>
      </div>
      {status.data && !status.data.smtp_configured && (
        <p role="status" className="flex gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          O envio de e-mails não está configurado na plataforma (SMTP): os e-mails ficam na fila até que seja configurado.
        </p>
      )}
      {settings.isPending ? (
        <Skeleton className="h-48" />
      ) : settings.isError ? (
        <LoadError title="Não foi possível carregar os e-mails" onRetry={settings.refetch} />
      ) : (
        <>
          <fieldset className="grid gap-3">
            <legend className="mb-1 text-sm font-medium">E-mails enviados</legend>
            {SCHOOL_KIND_LIST.map((kind) => (
              <SettingSwitch
                key={kind}
                id={`email-kind-${kind}`}
                label={OPTIONAL_EMAIL_KINDS[kind]}
                checked={!settings.data.disabled_kinds.includes(kind)}
                onSave={(on) => setKind.mutateAsync({ kind, on })}
              />
            ))}
            <p className="text-xs text-muted-foreground">Cada opção é salva assim que você a muda. Acesso liberado e os e-mails de pagamento são sempre enviados.</p>
          </fieldset>
          <SenderForm schoolId={schoolId} settings={settings.data} />
        </>
      )}
      {previewing && <EmailPreviewDialog schoolId={schoolId} onClose={() => setPreviewing(false)} />}
    </section>
  );
}

/** The sender's name and reply-to: typed, so saved by "Salvar" (and guarded until then). */
function SenderForm({ schoolId, settings }: { schoolId: string; settings: SchoolEmailSettings }) {
  const save = useSaveSchoolEmailSender(schoolId);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = useForm<SchoolEmailSenderValues>({
    resolver: zodResolver(schoolEmailSenderSchema),
    defaultValues: { sender_name: settings.sender_name ?? '', reply_to: settings.reply_to ?? '' },
  });
  useUnsavedChanges(isDirty);
  return (
    <form
      noValidate
      aria-label="Remetente dos e-mails"
      className="grid gap-4"
      onSubmit={handleSubmit((v) =>
        save.mutate({ sender_name: v.sender_name.trim() || null, reply_to: v.reply_to.trim() || null }, { onSuccess: () => reset(v) }),
      )}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Nome do remetente" hint="Padrão: o nome da escola." error={errors.sender_name?.message}>
          <Input autoComplete="off" {...register('sender_name')} />
        </FormField>
        <FormField label="Responder para" hint="Para onde vão as respostas dos alunos." error={errors.reply_to?.message}>
          <Input type="email" autoComplete="off" placeholder="contato@suaescola.com.br" {...register('reply_to')} />
        </FormField>
      </div>
      <Button type="submit" className="w-fit" disabled={save.isPending}>
        {save.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
        Salvar
      </Button>
    </form>
  );
}

function EmailPreviewDialog({ schoolId, onClose }: { schoolId: string; onClose: () => void }) {
  const [kind, setKind] = useState<EmailKind>('access_granted');
  const preview = useEmailPreview(schoolId, kind);
  const message = preview.data?.preview;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Pré-visualizar e-mail</DialogTitle>
          <DialogDescription>Com dados de exemplo, como o aluno recebe.</DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <Label htmlFor="email-preview-kind">E-mail</Label>
          <Select id="email-preview-kind" value={kind} onChange={(e) => setKind(e.target.value as EmailKind)}>
            {Object.entries(EMAIL_KIND_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
        </div>
        {preview.isError ? (
          <LoadError title="Não foi possível gerar a pré-visualização" onRetry={preview.refetch} />
        ) : !message ? (
          <Skeleton className="h-96" />
        ) : (
          <div className="grid gap-2">
            <p className="text-sm">
              <span className="text-muted-foreground">Assunto: </span>
              <strong>{message.subject}</strong>
            </p>
            {/* The message's own HTML, isolated: no scripts, no access to this page. */}
            <iframe title={`Pré-visualização: ${message.subject}`} sandbox="" srcDoc={message.html} className="h-[60vh] w-full rounded-lg border border-border" />
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

// Public verification of a certificate (issue 14): /certificado/<code>, no sign-in. One call to
// public.verify_certificate, which answers only the student's name, the course, the school, the
// completion date and the workload of the certificate with that code — or nothing.
import { useEffect, type ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { Award, BadgeCheck, SearchX } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useVerifyCertificate } from '@/features/certificates/api/hooks';
import { formatLongDate, workloadText } from '@/concepts/certificates';

function Shell({ children }: { children: ReactNode }) {
  return (
    <main className="min-h-dvh bg-gradient-to-b from-slate-100 to-slate-50 px-4 py-8 sm:py-16">
      <div className="mx-auto grid w-full max-w-xl gap-4">
        <p className="flex items-center justify-center gap-2 text-sm font-medium text-muted-foreground">
          <Award className="size-4" aria-hidden="true" /> Verificação de certificado
        </p>
        {children}
      </div>
    </main>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5 border-t border-border py-3 first:border-t-0 sm:grid-cols-[9rem_1fr] sm:gap-4">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="font-medium break-words">{children}</dd>
    </div>
  );
}

export default function CertificatePage() {
  // Codes are upper case; a code typed in lower case still finds its certificate.
  const code = (useParams().code ?? '').trim().toUpperCase();
  const verify = useVerifyCertificate(code);
  const certificate = verify.data;

  useEffect(() => {
    const previous = document.title;
    document.title = certificate
      ? `Certificado válido · ${certificate.course_title} · ${certificate.school_name}`
      : verify.isSuccess || !code
        ? 'Certificado não encontrado'
        : 'Verificação de certificado';
    return () => {
      document.title = previous;
    };
  }, [certificate, verify.isSuccess, code]);

  if (code && verify.isPending)
    return (
      <Shell>
        <div className="flex justify-center py-16">
          <Spinner className="size-10" label="Verificando certificado..." />
        </div>
      </Shell>
    );

  if (verify.isError)
    return (
      <Shell>
        <section role="alert" className="flex flex-col items-center gap-3 rounded-2xl border border-border bg-white px-6 py-12 text-center shadow-sm">
          <h1 className="text-xl font-semibold">Não foi possível verificar o certificado</h1>
          <p className="text-sm text-muted-foreground">Verifique sua conexão e tente novamente.</p>
          <Button variant="outline" onClick={() => void verify.refetch()}>
            Tentar novamente
          </Button>
        </section>
      </Shell>
    );

  if (!certificate)
    return (
      <Shell>
        <section className="flex flex-col items-center gap-3 rounded-2xl border border-border bg-white px-6 py-12 text-center shadow-sm" data-testid="certificate-not-found">
          <span className="flex size-14 items-center justify-center rounded-full bg-amber-100 text-amber-700">
            <SearchX className="size-7" aria-hidden="true" />
          </span>
          <h1 className="text-xl font-semibold">Certificado não encontrado</h1>
          <p className="max-w-sm text-sm text-muted-foreground">Nenhum certificado tem este código. Confira se ele foi digitado exatamente como aparece no certificado.</p>
          {code && <p className="rounded-md bg-muted px-3 py-1.5 font-mono text-sm break-all">{code}</p>}
        </section>
      </Shell>
    );

  return (
    <Shell>
      <article className="overflow-hidden rounded-2xl border border-green-200 bg-white shadow-sm" data-testid="certificate-valid">
        <header className="flex items-center gap-3 bg-green-50 px-5 py-5 sm:px-6">
          <span className="flex size-12 shrink-0 items-center justify-center rounded-full bg-green-600 text-white">
            <BadgeCheck className="size-7" aria-hidden="true" />
          </span>
          <div className="min-w-0">
            <h1 className="text-xl font-bold text-green-950 sm:text-2xl">Certificado válido</h1>
            <p className="text-sm text-green-900/80">Emitido por {certificate.school_name}.</p>
          </div>
        </header>
        <dl className="px-5 py-2 sm:px-6">
          <Field label="Aluno(a)">{certificate.student_name}</Field>
          <Field label="Curso">{certificate.course_title}</Field>
          <Field label="Escola">{certificate.school_name}</Field>
          <Field label="Concluído em">{formatLongDate(certificate.completed_at)}</Field>
          <Field label="Carga horária">{workloadText(certificate.workload_hours)}</Field>
          <Field label="Código">
            <span className="font-mono text-sm break-all">{certificate.code}</span>
          </Field>
        </dl>
      </article>
    </Shell>
  );
}

import { Award, Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import type { ButtonSize, ButtonVariant } from '@/components/ui/button-variants';
import { useDownloadCertificate } from '../api/hooks';

/** 'Baixar certificado' (the caller decides when it shows: certificateAvailable). */
export function CertificateButton({ courseId, courseSlug, size, variant, className }: { courseId: string; courseSlug: string; size?: ButtonSize; variant?: ButtonVariant; className?: string }) {
  const download = useDownloadCertificate();
  return (
    <Button size={size} variant={variant} className={className} disabled={download.isPending} aria-busy={download.isPending} onClick={() => download.mutate({ courseId, courseSlug })}>
      {download.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Award aria-hidden="true" />}
      Baixar certificado
    </Button>
  );
}

/** The course page's "you finished" panel with the download. */
export function CertificateCard({ courseId, courseSlug }: { courseId: string; courseSlug: string }) {
  return (
    <section aria-labelledby="certificado" className="flex flex-col gap-4 rounded-2xl border border-green-200 bg-green-50 p-5 sm:flex-row sm:items-center" data-testid="certificate-card">
      <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-green-100 text-green-700">
        <Award className="size-5" aria-hidden="true" />
      </span>
      <div className="min-w-0 flex-1">
        <h2 id="certificado" className="font-semibold text-green-950">
          Parabéns, você concluiu este curso!
        </h2>
        <p className="text-sm text-green-900/80">Baixe seu certificado de conclusão em PDF, com o código para conferir a autenticidade.</p>
      </div>
      <CertificateButton courseId={courseId} courseSlug={courseSlug} size="lg" />
    </section>
  );
}

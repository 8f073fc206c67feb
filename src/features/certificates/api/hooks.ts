// TanStack Query over certificates: the public check of a code (['certificates', 'verify', code])
// and the student's download.
import { useMutation, useQuery } from '@tanstack/react-query';
import { certificateFileName, verificationUrl } from '@/lib/certificates';
import { downloadBlob } from '@/lib/download';
import { useSession } from '@/lib/session';
import { supabase } from '@/lib/supabase';
import { toast } from '@/lib/toast';
import { issueCertificate, verifyCertificate } from './queries';
import { rootKeys } from '@/lib/query-keys';

export const certificateKeys = {
  all: rootKeys.certificates,
  verify: (code: string) => [...rootKeys.certificates, 'verify', code] as const,
};

export function useVerifyCertificate(code: string) {
  return useQuery({ queryKey: certificateKeys.verify(code), queryFn: () => verifyCertificate(supabase, code), enabled: !!code, retry: 1 });
}

/** The database's refusals (not enrolled, lessons left, certificates off) come in pt-BR; anything
 * else (network, a chunk that failed to load) gets a generic pt-BR hint. */
function issueErrorText(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (e && (e.code === '42501' || e.code === '22023') && typeof e.message === 'string') return e.message;
  return 'Verifique sua conexão e tente novamente.';
}

/** 'Baixar certificado': records the certificate (or gets the one already recorded), then draws the
 * PDF — pdf-lib is downloaded only now — and saves it as certificado-<course slug>.pdf. */
export function useDownloadCertificate() {
  const { school } = useSession();
  return useMutation({
    mutationKey: ['certificates', 'download'],
    mutationFn: async ({ courseId, courseSlug }: { courseId: string; courseSlug: string }) => {
      const certificate = await issueCertificate(supabase, courseId);
      const { createCertificatePdf } = await import('../lib/certificate-pdf');
      const bytes = await createCertificatePdf({
        code: certificate.code,
        studentName: certificate.student_name,
        courseTitle: certificate.course_title,
        schoolName: certificate.school_name,
        completedAt: certificate.completed_at,
        workloadHours: certificate.workload_hours,
        issuedAt: certificate.issued_at,
        verifyUrl: verificationUrl(window.location.origin, certificate.code),
        logoUrl: school?.logo_url ?? null,
        primaryColor: school?.primary_color ?? null,
        secondaryColor: school?.secondary_color ?? null,
      });
      saveCertificate(bytes, certificateFileName(courseSlug));
      return certificate;
    },
    onError: (error) => {
      console.error('Erro ao gerar certificado', error);
      toast.error('Não foi possível gerar o certificado', { description: issueErrorText(error) });
    },
  });
}

function saveCertificate(bytes: Uint8Array, fileName: string) {
  downloadBlob(fileName, new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }));
}

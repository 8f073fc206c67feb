// TanStack Query over certificates: the public check of a code (['certificates', 'verify', code])
// and the student's download.
import { useMutation, useQuery } from '@tanstack/react-query';
import { certificateFileName, verificationUrl } from '@/concepts/certificates';
import { downloadBlob } from '@/utils/download';
import { useSession, type SchoolRow } from '@/platform/session';
import { supabase } from '@/platform/supabase';
import { issueCertificate, verifyCertificate } from './queries';
import { rootKeys } from '@/platform/query-keys';

export const certificateKeys = {
  all: rootKeys.certificates,
  verify: (code: string) => [...certificateKeys.all, 'verify', code] as const,
};

export function useVerifyCertificate(code: string) {
  return useQuery({
    queryKey: certificateKeys.verify(code),
    queryFn: () => verifyCertificate(supabase, code),
    enabled: !!code,
    retry: 1,
  });
}

/** The database's refusals (not enrolled, lessons left, certificates off) come in pt-BR and are kept;
 * anything else (network, a chunk that failed to load) becomes a generic pt-BR hint. */
function issueError(error: unknown): Error {
  console.error('Erro ao gerar certificado', error);
  const e = error as { code?: unknown; message?: unknown } | null;
  const refused = e && (e.code === '42501' || e.code === '22023') && typeof e.message === 'string';
  return new Error(refused ? (e.message as string) : 'Verifique sua conexão e tente novamente.', { cause: error });
}

/** 'Baixar certificado': records the certificate (or gets the one already recorded), then draws the
 * PDF — pdf-lib is downloaded only now — and saves it as certificado-<course slug>.pdf. */
export function useDownloadCertificate() {
  const { school } = useSession();
  return useMutation({
    mutationKey: [...certificateKeys.all, 'download'],
    meta: { errorTitle: 'Não foi possível gerar o certificado' },
    mutationFn: ({ courseId, courseSlug }: { courseId: string; courseSlug: string }) =>
      downloadCertificate(courseId, courseSlug, school).catch((error: unknown) => {
        throw issueError(error);
      }),
  });
}

async function downloadCertificate(courseId: string, courseSlug: string, school: SchoolRow | null) {
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
}

function saveCertificate(bytes: Uint8Array, fileName: string) {
  downloadBlob(fileName, new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }));
}

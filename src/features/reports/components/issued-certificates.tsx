// Reports → 'Certificados emitidos': the school's certificates, newest first, with the public
// verification link of each. Row-level security limits the rows to the staff's school. The page is
// in the URL (?pagina=2).
import { ExternalLink } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { verificationUrl, workloadText } from '@/concepts/certificates';
import { formatDate } from '@/utils/format';
import { useListParams } from '@/utils/list-params';
import { useIssuedCertificates } from '../api/hooks';
import { CERTIFICATES_PAGE_SIZE } from '../api/queries';
import { PagedReport } from './paged-report';

export function IssuedCertificates({ schoolId, courseId }: { schoolId: string; courseId: string | null }) {
  const { page, setPage } = useListParams();
  return (
    <PagedReport
      query={useIssuedCertificates(schoolId, courseId, page)}
      page={page}
      pageSize={CERTIFICATES_PAGE_SIZE}
      onPageChange={setPage}
      noun={['certificado emitido', 'certificados emitidos']}
      loadErrorTitle="Não foi possível carregar os certificados"
      empty={<EmptyState title="Nenhum certificado emitido." description="Os certificados aparecem aqui quando os alunos concluem um curso e baixam o certificado." />}
      columns={['Código', 'Aluno', 'Curso', 'Conclusão', 'Carga horária']}
      caption="Certificados emitidos"
      minWidth="720px"
      rowKey={(c) => c.id}
      cells={(c) => (
        <>
          <td className="px-4 py-3 whitespace-nowrap">
            <a
              href={verificationUrl(window.location.origin, c.code)}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex items-center gap-1 font-mono text-xs text-primary underline-offset-2 hover:underline"
              aria-label={`Verificar certificado ${c.code} (abre em nova aba)`}
            >
              {c.code}
              <ExternalLink className="size-3.5" aria-hidden="true" />
            </a>
          </td>
          <td className="max-w-[14rem] truncate px-4 py-3 font-medium">{c.student_name}</td>
          <td className="max-w-[16rem] truncate px-4 py-3">{c.course_title}</td>
          <td className="px-4 py-3 whitespace-nowrap">{formatDate(c.completed_at)}</td>
          <td className="px-4 py-3 whitespace-nowrap tabular-nums">{workloadText(c.workload_hours)}</td>
        </>
      )}
      exportFile="certificados"
      exportRows={{ kind: 'certificates', schoolId, courseId }}
      pagerLabel="Páginas dos certificados"
    />
  );
}

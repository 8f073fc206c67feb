// Reports → 'Certificados emitidos': the school's certificates, newest first, with the public
// verification link of each. Row-level security limits the rows to the staff's school. The page is
// in the URL (?pagina=2).
import type { ReactNode } from 'react';
import { ExternalLink } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { Pagination } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { verificationUrl, workloadText } from '@/lib/certificates';
import { formatDate } from '@/lib/format';
import { useListParams } from '@/lib/list-params';
import { useIssuedCertificates } from '../api/hooks';
import { CERTIFICATES_PAGE_SIZE } from '../api/queries';
import { ExportCsvButton } from './export-csv-button';

export function IssuedCertificates({ schoolId, courseId }: { schoolId: string; courseId: string | null }) {
  const { page, setPage } = useListParams();
  const data = useIssuedCertificates(schoolId, courseId, page);

  let body: ReactNode;
  if (data.isPending) body = <Skeleton className="h-48 rounded-xl" />;
  else if (data.isError) body = <LoadError title="Não foi possível carregar os certificados" onRetry={data.refetch} />;
  else if (data.data.rows.length === 0) body = <EmptyState title="Nenhum certificado emitido." description="Os certificados aparecem aqui quando os alunos concluem um curso e baixam o certificado." />;
  else
    body = (
      <div className="overflow-x-auto rounded-xl border border-border bg-white">
        <table className="w-full min-w-[720px] text-left text-sm">
          <caption className="sr-only">Certificados emitidos</caption>
          <thead className="bg-muted/50 text-xs text-muted-foreground uppercase">
            <tr>
              <th scope="col" className="px-4 py-3">
                Código
              </th>
              <th scope="col" className="px-4 py-3">
                Aluno
              </th>
              <th scope="col" className="px-4 py-3">
                Curso
              </th>
              <th scope="col" className="px-4 py-3">
                Conclusão
              </th>
              <th scope="col" className="px-4 py-3">
                Carga horária
              </th>
            </tr>
          </thead>
          <tbody>
            {data.data.rows.map((c) => (
              <tr key={c.id} className="border-t border-border">
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
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {data.data ? `${data.data.total.toLocaleString('pt-BR')} ${data.data.total === 1 ? 'certificado emitido' : 'certificados emitidos'}` : ''}
        </p>
        <ExportCsvButton fileName="certificados" disabled={!data.data?.total} rows={{ kind: 'certificates', schoolId, courseId }} />
      </div>
      {body}
      {data.data && <Pagination page={page} pageSize={CERTIFICATES_PAGE_SIZE} total={data.data.total} onPageChange={setPage} label="Páginas dos certificados" />}
    </div>
  );
}

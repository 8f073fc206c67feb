// A turma's page (issue 40): its students with progress against the turma's calendar ("Em dia",
// "Atrasado 2 aulas": lessons released by now minus the ones completed), last activity, and "Alunos em
// risco" (7 days without activity, or 2+ lessons behind; the database judges it: admin_turma_students)
// with "Chamar no WhatsApp" and "Enviar e-mail". "Comunicado para a turma" opens Comunicados' form with
// the turma chosen. The tab, search and page are in the URL.
import { Link } from 'react-router-dom';
import { ArrowLeft, Mail, Megaphone, MessageCircle, UsersRound } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { buttonClasses } from '@/components/ui/button-variants';
import { DataTable } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { ListSearch } from '@/components/ui/list-search';
import { LoadError } from '@/components/ui/load-error';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { turmaPeriod } from '@/concepts/turmas';
import { formatDate } from '@/utils/format';
import { useListParams } from '@/utils/list-params';
import { useTurma, useTurmaStudents } from '../api/hooks';
import { TURMA_STUDENTS_PAGE_SIZE, type TurmaDetail, type TurmaStudent } from '../api/queries';
import { mailtoLink, paceLabel, whatsappLink } from '../contact';

function lastActivity(s: TurmaStudent): string {
  if (!s.last_activity) return 'Nenhuma atividade';
  if (s.inactive_days === 0) return `Hoje (${formatDate(s.last_activity)})`;
  return `Há ${s.inactive_days} ${s.inactive_days === 1 ? 'dia' : 'dias'} (${formatDate(s.last_activity)})`;
}

function riskReasons(s: TurmaStudent): string {
  const reasons = [];
  if (s.inactive_days >= 7) reasons.push(s.last_activity ? `Sem atividade há ${s.inactive_days} dias` : `Nenhuma atividade em ${s.inactive_days} dias`);
  if (s.behind >= 2) reasons.push(paceLabel(s.behind));
  return reasons.join(' · ');
}

function Contact({ s, turma }: { s: TurmaStudent; turma: TurmaDetail }) {
  const context = { studentName: s.name, courseTitle: turma.course?.title ?? '', turmaName: turma.name };
  const whatsapp = whatsappLink(s.phone, context);
  return (
    <div className="flex flex-wrap gap-2">
      {whatsapp ? (
        <a href={whatsapp} target="_blank" rel="noreferrer" className={buttonClasses({ variant: 'outline', size: 'sm' })} aria-label={`Chamar ${s.name} no WhatsApp`}>
          <MessageCircle aria-hidden="true" /> Chamar no WhatsApp
        </a>
      ) : (
        <span className="self-center text-xs text-muted-foreground">{s.phone ? 'Telefone sem formato de WhatsApp' : 'Sem telefone no cadastro'}</span>
      )}
      {s.email && (
        <a href={mailtoLink(s.email, context)} className={buttonClasses({ variant: 'outline', size: 'sm' })} aria-label={`Enviar e-mail para ${s.name}`}>
          <Mail aria-hidden="true" /> Enviar e-mail
        </a>
      )}
    </div>
  );
}

function StudentsTable({ turma, atRisk }: { turma: TurmaDetail; atRisk: boolean }) {
  const params = useListParams();
  const students = useTurmaStudents(turma.id, params.query, atRisk, params.page);
  const rows = students.data?.rows ?? [];
  if (students.isPending) return <Skeleton className="h-48 rounded-xl" />;
  if (students.isError) return <LoadError title="Não foi possível carregar os alunos da turma" onRetry={students.refetch} />;
  return (
    <>
      <ListSearch label="Buscar aluno da turma" placeholder="Nome ou e-mail" value={params.query} onSearch={params.setQuery} />
      {rows.length === 0 ? (
        <EmptyState
          icon={UsersRound}
          title={params.query ? 'Nenhum aluno encontrado' : atRisk ? 'Nenhum aluno em risco' : 'Nenhum aluno nesta turma'}
          description={atRisk ? 'Ninguém está há 7 dias sem atividade nem 2 aulas ou mais atrasado.' : 'Matricule alunos na turma em Matrículas.'}
        />
      ) : (
        <DataTable
          caption={atRisk ? 'Alunos em risco' : 'Alunos da turma'}
          columns={atRisk ? ['Aluno', 'Motivo', 'Última atividade', 'Contato'] : ['Aluno', 'Progresso', 'Ritmo', 'Última atividade']}
          minWidth="48rem"
        >
          {rows.map((s) => (
            <tr key={s.enrollment_id} className="border-t border-border align-top">
              <th scope="row" className="px-4 py-3 font-normal">
                <span className="font-medium">{s.name}</span>
                {s.email && <span className="block text-xs text-muted-foreground">{s.email}</span>}
                {s.status !== 'ACTIVE' && <span className="block text-xs text-muted-foreground">Matrícula pausada</span>}
              </th>
              {atRisk ? (
                <>
                  <td className="px-4 py-3">{riskReasons(s)}</td>
                  <td className="px-4 py-3">{lastActivity(s)}</td>
                  <td className="px-4 py-3">
                    <Contact s={s} turma={turma} />
                  </td>
                </>
              ) : (
                <>
                  <td className="px-4 py-3 whitespace-nowrap">
                    {s.completed} de {s.total} {s.total === 1 ? 'aula' : 'aulas'}
                    <span className="block text-xs text-muted-foreground">{s.released} liberadas até hoje</span>
                  </td>
                  <td className="px-4 py-3">
                    <Badge variant={s.behind > 0 ? (s.behind >= 2 ? 'warning' : 'secondary') : 'success'}>{paceLabel(s.behind)}</Badge>
                    {s.at_risk && <span className="block pt-1 text-xs text-destructive">Em risco</span>}
                  </td>
                  <td className="px-4 py-3">{lastActivity(s)}</td>
                </>
              )}
            </tr>
          ))}
        </DataTable>
      )}
      <Pagination
        page={params.page}
        pageSize={TURMA_STUDENTS_PAGE_SIZE}
        total={students.data?.total ?? 0}
        onPageChange={params.setPage}
        noun={atRisk ? ['aluno em risco', 'alunos em risco'] : ['aluno', 'alunos']}
      />
    </>
  );
}

export function TurmaPage({ turmaId }: { turmaId: string }) {
  const params = useListParams();
  const turma = useTurma(turmaId);
  const atRisk = params.filter('lista') === 'risco';
  if (turma.isPending) return <AdminPage><Skeleton className="h-48 rounded-xl" /></AdminPage>;
  if (turma.isError) return <AdminPage><LoadError title="Não foi possível carregar a turma" onRetry={turma.refetch} /></AdminPage>;
  const t = turma.data;
  if (!t) return <AdminPage><EmptyState icon={UsersRound} title="Turma não encontrada" description="Ela pode ter sido excluída." /></AdminPage>;
  const tab = (risk: boolean, label: string) => (
    <button
      type="button"
      role="tab"
      aria-selected={atRisk === risk}
      onClick={() => params.setFilters({ lista: risk ? 'risco' : '', q: '' })}
      className={buttonClasses({ variant: atRisk === risk ? 'default' : 'outline', size: 'sm' })}
    >
      {label}
    </button>
  );
  return (
    <AdminPage>
      <Link to={`/admin/turmas?curso=${t.course_id}`} className={buttonClasses({ variant: 'ghost', size: 'sm', className: 'w-fit' })}>
        <ArrowLeft aria-hidden="true" /> Turmas
      </Link>
      <PageHeader
        title={t.name}
        description={`${t.course?.title ?? ''} · ${turmaPeriod(t)}`}
        actions={
          <Link to={`/admin/announcements?turma=${t.id}&curso=${t.course_id}`} className={buttonClasses({})}>
            <Megaphone aria-hidden="true" /> Comunicado para a turma
          </Link>
        }
      />
      <div role="tablist" aria-label="Alunos" className="flex flex-wrap gap-2">
        {tab(false, 'Todos os alunos')}
        {tab(true, 'Alunos em risco')}
      </div>
      <StudentsTable key={String(atRisk)} turma={t} atRisk={atRisk} />
    </AdminPage>
  );
}

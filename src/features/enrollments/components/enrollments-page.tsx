// The Enrollments screen (SPEC §2): the school's enrollments filtered by course, turma (issue 40) and
// status, page by page; the filters and the page live in the URL (?curso=…&turma=…&status=PAUSED&pagina=2).
// Each card says the student's turma and moves it ("Mover de turma").
import { useState } from 'react';
import { ArrowRightLeft, GraduationCap, Plus } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { Label } from '@/components/ui/label';
import { CourseFilter, type CourseOption } from '@/concepts/course-filter';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { ENROLLMENT_STATUS_LABEL } from '@/concepts/enrollment';
import { useCourseTurmas } from '@/concepts/turmas';
import { formatDate, maskCpf } from '@/utils/format';
import { LoadError } from '@/components/ui/load-error';
import { DeleteRowButton } from '@/components/ui/row-actions';
import { useListParams } from '@/utils/list-params';
import { PENDING_DESCRIPTION, useDeleteEnrollment, useEnrollments, useSetEnrollmentStatus } from '../api/hooks';
import { ENROLLMENTS_PAGE_SIZE, type AdminEnrollment, type EnrollmentFilters } from '../api/queries';
import { EnrollDialog } from './enroll-dialog';
import { MoveTurmaDialog } from './move-turma-dialog';
import { Constants } from '@/types/database';

const STATUSES = Constants.public.Checks.enrollments.status;

export function EnrollmentsPage({ schoolId, courses }: { schoolId: string; courses: CourseOption[] }) {
  const { page, setPage, filter, setFilter, setFilters } = useListParams();
  const filters: EnrollmentFilters = {
    courseId: filter('curso'),
    status: STATUSES.find((s) => s === filter('status')) ?? '',
    turmaId: filter('curso') ? filter('turma') : '',
  };
  const turmas = useCourseTurmas(filters.courseId);
  const [moving, setMoving] = useState<AdminEnrollment | null>(null);
  const enrollments = useEnrollments(schoolId, filters, page);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<AdminEnrollment | null>(null);
  const remove = useDeleteEnrollment();
  const rows = enrollments.data?.rows ?? [];
  // "Now" for the expiry labels, fixed for the life of the page.
  const [now] = useState(() => Date.now());

  return (
    <AdminPage>
      <PageHeader
        title="Matrículas"
        description="Quem estuda cada curso"
        actions={
          <Button onClick={() => setAdding(true)} disabled={courses.length === 0}>
            <Plus aria-hidden="true" /> Nova Matrícula
          </Button>
        }
      />
      <div className="grid gap-3 sm:grid-cols-3 md:max-w-3xl">
        <CourseFilter id="filter-course" value={filters.courseId} courses={courses} onChange={(v) => setFilters({ curso: v, turma: '' })} />
        {filters.courseId && (turmas.data ?? []).length > 0 && (
          <div className="grid gap-2">
            <Label htmlFor="filter-turma">Turma</Label>
            <Select id="filter-turma" value={filters.turmaId} onChange={(e) => setFilter('turma', e.target.value)}>
              <option value="">Todas as turmas</option>
              {(turmas.data ?? []).map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </Select>
          </div>
        )}
        <div className="grid gap-2">
          <Label htmlFor="filter-status">Status</Label>
          <Select id="filter-status" value={filters.status} onChange={(e) => setFilter('status', e.target.value)}>
            <option value="">Todos</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {ENROLLMENT_STATUS_LABEL[s]}
              </option>
            ))}
          </Select>
        </div>
      </div>
      {enrollments.isPending ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-36 rounded-xl" />
          ))}
        </div>
      ) : enrollments.isError ? (
        <LoadError title="Não foi possível carregar as matrículas" onRetry={enrollments.refetch} />
      ) : rows.length === 0 ? (
        <EmptyState icon={GraduationCap} title="Nenhuma matrícula encontrada" description={filters.courseId || filters.status || filters.turmaId ? 'Mude os filtros para ver outras matrículas.' : 'Matricule um aluno em um curso.'} />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Matrículas" aria-busy={enrollments.isFetching}>
          {rows.map((e) => (
            <EnrollmentCard key={e.id} enrollment={e} now={now} onDelete={() => setDeleting(e)} onMove={() => setMoving(e)} />
          ))}
        </ul>
      )}
      {enrollments.data && <Pagination page={page} pageSize={ENROLLMENTS_PAGE_SIZE} total={enrollments.data.total} onPageChange={setPage} label="Páginas de matrículas" noun={['matrícula', 'matrículas']} />}
      {moving && <MoveTurmaDialog enrollment={moving} onClose={() => setMoving(null)} />}
      {adding && <EnrollDialog schoolId={schoolId} courses={courses} onClose={() => setAdding(false)} />}
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Excluir matrícula?"
        description={`${deleting?.student?.name ?? 'O aluno'} perderá o acesso a "${deleting?.course?.title ?? ''}". O progresso fica guardado caso seja matriculado de novo.`}
        confirmLabel="Excluir"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
      />
    </AdminPage>
  );
}

function EnrollmentCard({ enrollment: e, now, onDelete, onMove }: { enrollment: AdminEnrollment; now: number; onDelete: () => void; onMove: () => void }) {
  const setStatus = useSetEnrollmentStatus();
  const active = e.status === 'ACTIVE';
  // Waiting for the student's e-mail: the database makes it ACTIVE then, no switch can.
  const pending = e.status === 'PENDING';
  const expired = !!e.expires_at && new Date(e.expires_at).getTime() <= now;
  const name = e.student?.name ?? 'Aluno';
  return (
    <li className="grid min-w-0 grid-cols-1 content-start gap-3 rounded-xl border border-border bg-white p-4 shadow-xs">
      {/* Wraps the status under the name when both do not fit ("Aguardando confirmação" is long). */}
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 flex-1 basis-40">
          <h2 className="truncate font-semibold">{name}</h2>
          <p className="truncate text-sm text-muted-foreground">{e.student?.cpf ? maskCpf(e.student.cpf) : 'CPF não informado'}</p>
        </div>
        <Badge variant={active ? 'success' : pending ? 'secondary' : 'warning'}>{ENROLLMENT_STATUS_LABEL[e.status]}</Badge>
      </div>
      <p className="truncate text-sm font-medium">{e.course?.title}</p>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="truncate text-sm text-muted-foreground">{e.turma ? `Turma: ${e.turma.name}` : 'Sem turma'}</p>
        <Button variant="outline" size="sm" onClick={onMove} aria-label={`Mover ${name} de turma`}>
          <ArrowRightLeft aria-hidden="true" /> Mover de turma
        </Button>
      </div>
      {e.expires_at && <p className={expired ? 'text-xs font-medium text-destructive' : 'text-xs text-muted-foreground'}>{expired ? `Expirada em ${formatDate(e.expires_at)}` : `Expira em ${formatDate(e.expires_at)}`}</p>}
      {pending && <p className="text-xs text-muted-foreground">Aguardando confirmação do e-mail. {PENDING_DESCRIPTION}</p>}
      <div className="flex items-center justify-between gap-2">
        <div className={pending ? 'hidden' : 'flex items-center gap-2'}>
          <Switch
            id={`enr-${e.id}`}
            checked={active}
            disabled={setStatus.isPending}
            onCheckedChange={(on) => setStatus.mutate({ id: e.id, status: on ? 'ACTIVE' : 'PAUSED' })}
            aria-label={`${active ? 'Pausar' : 'Ativar'} matrícula de ${name} em ${e.course?.title ?? ''}`}
          />
          <label htmlFor={`enr-${e.id}`} className="text-sm">
            {active ? 'Ativa' : 'Pausada'}
          </label>
        </div>
        <DeleteRowButton name={name} label={`Excluir matrícula de ${name}`} onClick={onDelete} className="ml-auto" />
      </div>
    </li>
  );
}

// Turmas (issue 40): a course's turmas with their dates, status (aberta, em andamento, encerrada, from
// the dates), seats taken of the total, the waiting list, the students' average progress; create, edit, delete, and each turma's
// calendar. A turma's name opens its page (students, progress, Alunos em risco). The course is in the
// URL (?curso=…), so a reload or a shared link returns to it.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { CalendarDays, Plus, UsersRound } from 'lucide-react';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { Label } from '@/components/ui/label';
import { LoadError } from '@/components/ui/load-error';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { DeleteRowButton, EditRowButton } from '@/components/ui/row-actions';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { CourseOptions, type CourseOption } from '@/concepts/course-filter';
import { TURMA_STATUS_LABEL, turmaPeriod, useCourseTurmas, type CourseTurma, type TurmaStatus } from '@/concepts/turmas';
import { useListParams } from '@/utils/list-params';
import { useDeleteTurma, useTurmasProgress } from '../api/hooks';
import { TurmaCalendarDialog } from './turma-calendar-dialog';
import { TurmaDialog } from './turma-dialog';

const STATUS_BADGE: Record<TurmaStatus, BadgeVariant> = { aberta: 'secondary', 'em andamento': 'success', encerrada: 'outline' };

function seatsLabel(t: CourseTurma): string {
  const taken = t.seats === null ? `${t.seats_taken} (sem limite)` : `${t.seats_taken} de ${t.seats}`;
  // Seats held by charges not paid yet, apart from the students (a PIX's day at most).
  return t.held > 0 ? `${taken} · ${t.held} ${t.held === 1 ? 'reservada' : 'reservadas'}` : taken;
}

export function TurmasPage({ schoolId, courses }: { schoolId: string; courses: CourseOption[] }) {
  const params = useListParams();
  const courseId = params.filter('curso') || courses[0]?.id || '';
  const turmas = useCourseTurmas(courseId);
  const progress = useTurmasProgress(courseId);
  const remove = useDeleteTurma();
  const [editing, setEditing] = useState<{ turma: CourseTurma | null } | null>(null);
  const [calendar, setCalendar] = useState<CourseTurma | null>(null);
  const [deleting, setDeleting] = useState<CourseTurma | null>(null);
  const list = turmas.data ?? [];

  return (
    <AdminPage>
      <PageHeader
        title="Turmas"
        description="Turmas de um curso: os alunos começam juntos, o conteúdo abre pelo calendário da turma e o acesso termina com ela."
        actions={
          courseId && (
            <Button onClick={() => setEditing({ turma: null })}>
              <Plus aria-hidden="true" /> Nova Turma
            </Button>
          )
        }
      />
      {courses.length === 0 ? (
        <EmptyState icon={UsersRound} title="A escola ainda não tem cursos" description="Crie um curso para organizar os alunos dele em turmas." />
      ) : (
        <>
          <div className="grid max-w-sm gap-2">
            <Label htmlFor="turmas-course">Curso</Label>
            <Select id="turmas-course" value={courseId} onChange={(e) => params.setFilter('curso', e.target.value)}>
              <CourseOptions courses={courses} />
            </Select>
          </div>
          {turmas.isPending ? (
            <Skeleton className="h-48 rounded-xl" />
          ) : turmas.isError ? (
            <LoadError title="Não foi possível carregar as turmas" onRetry={turmas.refetch} />
          ) : list.length === 0 ? (
            <EmptyState
              icon={UsersRound}
              title="Nenhuma turma neste curso"
              description="Sem turmas, o curso é vendido como sempre. Crie uma turma para um lançamento: início, término, vagas e calendário próprios."
            />
          ) : (
            <DataTable caption="Turmas do curso" columns={['Turma', 'Período', 'Situação', 'Vagas ocupadas', 'Lista de espera', 'Progresso médio', 'Ações']} minWidth="58rem">
              {list.map((t) => (
                <tr key={t.id} className="border-t border-border align-top">
                  <th scope="row" className="px-4 py-3 font-normal">
                    <Link to={`/admin/turmas/${t.id}`} className="font-semibold text-primary hover:underline">
                      {t.name}
                    </Link>
                    <span className="block text-xs text-muted-foreground">
                      {t.students} {t.students === 1 ? 'aluno' : 'alunos'}
                    </span>
                  </th>
                  <td className="px-4 py-3">{turmaPeriod(t)}</td>
                  <td className="px-4 py-3">
                    <Badge variant={STATUS_BADGE[t.status]}>{TURMA_STATUS_LABEL[t.status]}</Badge>
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap">{seatsLabel(t)}</td>
                  <td className="px-4 py-3">{t.waitlist_enabled ? `${t.waiting} ${t.waiting === 1 ? 'pessoa' : 'pessoas'}` : 'Desligada'}</td>
                  <td className="px-4 py-3">{progress.data && t.id in progress.data ? `${progress.data[t.id]}%` : '—'}</td>
                  <td className="px-2 py-1">
                    <div className="flex">
                      <Button variant="ghost" size="icon" onClick={() => setCalendar(t)} aria-label={`Calendário da ${t.name}`} title="Calendário">
                        <CalendarDays aria-hidden="true" />
                      </Button>
                      <EditRowButton name={t.name} onClick={() => setEditing({ turma: t })} iconOnly />
                      <DeleteRowButton name={t.name} onClick={() => setDeleting(t)} iconOnly />
                    </div>
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
        </>
      )}
      {editing && <TurmaDialog schoolId={schoolId} turma={editing.turma} courseId={courseId} onClose={() => setEditing(null)} />}
      {calendar && <TurmaCalendarDialog schoolId={schoolId} turmaId={calendar.id} turmaName={calendar.name} courseId={courseId} onClose={() => setCalendar(null)} />}
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Excluir turma?"
        description={
          deleting && deleting.students > 0
            ? `${deleting.name} tem ${deleting.students} ${deleting.students === 1 ? 'aluno' : 'alunos'}: eles continuam matriculados no curso, sem turma (o progresso fica); o calendário e os comunicados dela são excluídos. Esta ação não pode ser desfeita.`
            : `${deleting?.name ?? ''}, o calendário e os comunicados dela serão excluídos. Esta ação não pode ser desfeita.`
        }
        confirmLabel="Excluir"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
      />
    </AdminPage>
  );
}

// The Students screen (SPEC §2): one page of the school's students (page and search in the URL,
// ?pagina=2&q=maria), cards with edit, redefine password (SPEC's "reset password"), resend access and
// the active switch; add and CSV import. Each card's buttons are named with the student's name for
// screen readers ("Editar Mariana Souza"), the visible word first.
import { useState } from 'react';
import { Activity, FileUp, Inbox, KeyRound, Mail, Plus, Users } from 'lucide-react';
import { Avatar } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { ListSearch } from '@/components/ui/list-search';
import { LoadError } from '@/components/ui/load-error';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { TemporaryPasswordDialog } from '@/components/ui/temporary-password-dialog';
import { EditRowButton } from '@/components/ui/row-actions';
import { firstAccessText, useResetAccountPassword } from '@/concepts/accounts';
import { maskCpf, maskPhone } from '@/utils/format';
import { useListParams } from '@/utils/list-params';
import { useResendStudentAccess, useStudents, useToggleStudentActive } from '../api/hooks';
import { STUDENTS_PAGE_SIZE, type CreatedStudent, type StudentRow } from '../api/queries';
import { ImportStudentsDialog } from './import-dialog';
import { StudentActivityDialog } from './student-activity-dialog';
import { EditStudentDialog, StudentDialog } from './student-dialogs';
import { StudentEmailsDialog } from './student-emails-dialog';
import type { CourseOption } from '@/concepts/course-filter';

export function StudentsPage({ schoolId, courses }: { schoolId: string; courses: CourseOption[] }) {
  const { page, query, setPage, setQuery } = useListParams();
  const students = useStudents(schoolId, query, page);
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const [editing, setEditing] = useState<StudentRow | null>(null);
  const [resetting, setResetting] = useState<StudentRow | null>(null);
  const [password, setPassword] = useState<{ who: string; title: string; value: string } | null>(null);
  const [created, setCreated] = useState<{ name: string; student: CreatedStudent } | null>(null);
  const reset = useResetAccountPassword();
  const rows = students.data?.rows ?? [];

  return (
    <AdminPage>
      <PageHeader
        title="Alunos"
        description="Os alunos da sua escola"
        actions={
          <>
            <Button variant="outline" onClick={() => setImporting(true)}>
              <FileUp aria-hidden="true" /> Importar CSV
            </Button>
            <Button onClick={() => setAdding(true)}>
              <Plus aria-hidden="true" /> Novo Aluno
            </Button>
          </>
        }
      />
      <ListSearch label="Buscar aluno por nome, e-mail ou CPF" placeholder="Buscar por nome, e-mail ou CPF..." value={query} onSearch={setQuery} />
      {students.isPending ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {[0, 1, 2, 3, 4, 5].map((i) => (
            <Skeleton key={i} className="h-44 rounded-xl" />
          ))}
        </div>
      ) : students.isError ? (
        <LoadError title="Não foi possível carregar os alunos" onRetry={students.refetch} />
      ) : rows.length === 0 ? (
        <EmptyState
          icon={Users}
          title={query ? 'Nenhum aluno encontrado' : 'Nenhum aluno cadastrado ainda'}
          description={query ? `Nada encontrado para "${query}".` : 'Cadastre o primeiro aluno da escola.'}
        />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Alunos" aria-busy={students.isFetching}>
          {rows.map((s) => (
            <StudentCard key={s.id} student={s} onEdit={() => setEditing(s)} onReset={() => setResetting(s)} />
          ))}
        </ul>
      )}
      {students.data && <Pagination page={page} pageSize={STUDENTS_PAGE_SIZE} total={students.data.total} onPageChange={setPage} label="Páginas de alunos" noun={query ? ['aluno encontrado', 'alunos encontrados'] : ['aluno', 'alunos']} />}
      {adding && (
        <StudentDialog
          schoolId={schoolId}
          onClose={() => setAdding(false)}
          onCreated={(name, student) => setCreated({ name, student })}
        />
      )}
      {importing && <ImportStudentsDialog schoolId={schoolId} courses={courses} onClose={() => setImporting(false)} />}
      {editing && <EditStudentDialog student={editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={!!resetting}
        onOpenChange={(o) => !o && setResetting(null)}
        title="Redefinir senha?"
        description={`${resetting?.name ?? ''} receberá uma senha temporária e precisará criar uma nova no próximo acesso. As sessões abertas serão encerradas.`}
        confirmLabel="Redefinir senha"
        destructive={false}
        pending={reset.isPending}
        onConfirm={() =>
          resetting &&
          reset.mutate(resetting.id, {
            onSuccess: (r) =>
              setPassword({ who: resetting.name, title: 'Senha redefinida', value: r.temporary_password }),
            onSettled: () => setResetting(null),
          })
        }
      />
      <TemporaryPasswordDialog
        title={password?.title ?? ''}
        who={password?.who ?? ''}
        password={password?.value ?? null}
        onClose={() => setPassword(null)}
      />
      <TemporaryPasswordDialog
        title="Aluno cadastrado"
        who={created?.name ?? ''}
        password={created?.student.temporary_password ?? null}
        passwordLabel="Senha inicial"
        description={created && firstAccessText(created.name, created.student.password_rule === 'cpf' ? 'o CPF, só os números' : 'a senha padrão da plataforma')}
        onClose={() => setCreated(null)}
      />
    </AdminPage>
  );
}

function StudentCard({ student, onEdit, onReset }: { student: StudentRow; onEdit: () => void; onReset: () => void }) {
  const toggle = useToggleStudentActive();
  const resend = useResendStudentAccess();
  // A student who already chose a password is asked about first: the e-mail's link lets whoever holds
  // it choose another.
  const [confirmingResend, setConfirmingResend] = useState(false);
  const asksFirst = student.is_active && !student.must_change_password;
  const [showingEmails, setShowingEmails] = useState(false);
  const [showingActivity, setShowingActivity] = useState(false);
  const switchId = `active-${student.id}`;
  return (
    <li className="grid min-w-0 grid-cols-1 content-start gap-3 rounded-xl border border-border bg-white p-4 shadow-xs">
      <div className="flex items-start gap-3">
        <Avatar name={student.name} src={student.avatar_url} className="size-11" />
        <div className="min-w-0 flex-1">
          <h2 className="truncate font-semibold">{student.name}</h2>
          <p className="truncate text-xs text-muted-foreground">{student.email}</p>
        </div>
        <Badge variant={student.is_active ? 'success' : 'secondary'}>{student.is_active ? 'Ativo' : 'Inativo'}</Badge>
      </div>
      <dl className="grid grid-cols-1 gap-1 text-sm">
        <div className="flex gap-2">
          <dt className="shrink-0 text-muted-foreground">CPF:</dt>
          <dd className="min-w-0 truncate">{student.cpf ? maskCpf(student.cpf) : 'CPF não informado'}</dd>
        </div>
        <div className="flex gap-2">
          <dt className="shrink-0 text-muted-foreground">Telefone:</dt>
          <dd className="min-w-0 truncate">{student.phone ? maskPhone(student.phone) : '—'}</dd>
        </div>
        <div className="flex gap-2">
          <dt className="shrink-0 text-muted-foreground">Endereço:</dt>
          {/* A long address wraps, up to two lines, inside the card (the full text is read and in the title). */}
          <dd className="line-clamp-2 min-w-0 [overflow-wrap:anywhere]" title={student.address ?? undefined}>
            {student.address ?? '—'}
          </dd>
        </div>
      </dl>
      <div className="flex flex-wrap items-center gap-2">
        <EditRowButton name={student.name} onClick={onEdit} />
        <Button variant="outline" size="sm" onClick={onReset} aria-label={`Redefinir senha de ${student.name}`}>
          <KeyRound aria-hidden="true" /> Redefinir senha
        </Button>
        <Button
          variant="outline"
          size="sm"
          onClick={() => (asksFirst ? setConfirmingResend(true) : resend.mutate(student.id))}
          disabled={resend.isPending}
          aria-label={`Reenviar acesso de ${student.name}`}
        >
          <Mail aria-hidden="true" /> Reenviar acesso
        </Button>
        <Button variant="outline" size="sm" onClick={() => setShowingEmails(true)} aria-label={`E-mails de ${student.name}`}>
          <Inbox aria-hidden="true" /> E-mails
        </Button>
        <Button variant="outline" size="sm" onClick={() => setShowingActivity(true)} aria-label={`Ver atividade de ${student.name}`}>
          <Activity aria-hidden="true" /> Ver atividade
        </Button>
        <div className="ml-auto flex items-center gap-2">
          <Switch
            id={switchId}
            checked={student.is_active}
            disabled={toggle.isPending}
            onCheckedChange={(active) => toggle.mutate({ id: student.id, active })}
          />
          <label htmlFor={switchId} className="text-sm">
            <span className="sr-only">{student.name}: </span>Ativo
          </label>
        </div>
      </div>
      <ConfirmDialog
        open={confirmingResend}
        onOpenChange={setConfirmingResend}
        title="Reenviar acesso?"
        description={`${student.name} já criou a própria senha. O e-mail traz um link para criar outra; a senha atual continua valendo até o link ser usado.`}
        confirmLabel="Reenviar acesso"
        destructive={false}
        pending={resend.isPending}
        onConfirm={() => resend.mutate(student.id, { onSettled: () => setConfirmingResend(false) })}
      />
      {showingEmails && <StudentEmailsDialog student={student} onClose={() => setShowingEmails(false)} />}
      {showingActivity && <StudentActivityDialog student={student} onClose={() => setShowingActivity(false)} />}
    </li>
  );
}

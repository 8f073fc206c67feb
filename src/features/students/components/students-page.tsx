import { useDeferredValue, useState } from 'react';
import { Controller, useForm, type Control, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { FileUp, KeyRound, Pencil, Plus, Search, Users } from 'lucide-react';
import { Avatar } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { TemporaryPasswordDialog } from '@/components/ui/temporary-password-dialog';
import { maskCpf, maskPhone } from '@/lib/format';
import { useCreateStudent, useResetPassword, useStudents, useToggleStudentActive, useUpdateStudent } from '../api/hooks';
import { STUDENTS_PAGE_SIZE, type StudentRow } from '../api/queries';
import { ImportStudentsDialog } from './import-dialog';
import { editStudentSchema, studentSchema, type EditStudentValues, type StudentValues } from '../schemas';

export function StudentsPage({ schoolId, courses }: { schoolId: string; courses: { id: string; title: string }[] }) {
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search.trim());
  const [page, setPage] = useState(0);
  const students = useStudents(schoolId, deferred, page);
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const [editing, setEditing] = useState<StudentRow | null>(null);
  const [resetting, setResetting] = useState<StudentRow | null>(null);
  const [password, setPassword] = useState<{ who: string; title: string; value: string } | null>(null);
  const reset = useResetPassword();
  const rows = students.data?.rows ?? [];

  return (
    <AdminPage>
      <PageHeader
        title="Alunos"
        description={students.data ? `${students.data.total.toLocaleString('pt-BR')} ${students.data.total === 1 ? 'aluno' : 'alunos'}${deferred ? ' encontrados' : ''}` : 'Os alunos da sua escola'}
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
      <div className="relative max-w-md">
        <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
        <Input
          type="search"
          aria-label="Buscar aluno por nome, e-mail ou CPF"
          placeholder="Buscar por nome, e-mail ou CPF..."
          className="pl-9"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(0);
          }}
        />
      </div>
      {students.isPending ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {[0, 1, 2, 3, 4, 5].map((i) => (
            <Skeleton key={i} className="h-44 rounded-xl" />
          ))}
        </div>
      ) : students.isError ? (
        <EmptyState title="Não foi possível carregar os alunos" action={<Button onClick={() => void students.refetch()}>Tentar novamente</Button>} />
      ) : rows.length === 0 ? (
        <EmptyState icon={Users} title={deferred ? 'Nenhum aluno encontrado' : 'Nenhum aluno cadastrado ainda'} description={deferred ? `Nada encontrado para "${deferred}".` : 'Cadastre o primeiro aluno da escola.'} />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Alunos" aria-busy={students.isFetching}>
          {rows.map((s) => (
            <StudentCard key={s.id} student={s} onEdit={() => setEditing(s)} onReset={() => setResetting(s)} />
          ))}
        </ul>
      )}
      {students.data && <Pagination page={page} pageSize={STUDENTS_PAGE_SIZE} total={students.data.total} onPageChange={setPage} label="Páginas de alunos" />}
      {adding && (
        <StudentDialog
          schoolId={schoolId}
          onClose={() => setAdding(false)}
          onCreated={(name, pwd) => setPassword({ who: name, title: 'Aluno cadastrado', value: pwd })}
        />
      )}
      {importing && <ImportStudentsDialog schoolId={schoolId} courses={courses} onClose={() => setImporting(false)} />}
      {editing && <EditStudentDialog student={editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={!!resetting}
        onOpenChange={(o) => !o && setResetting(null)}
        title="Resetar senha?"
        description={`${resetting?.name ?? ''} receberá uma senha temporária e precisará criar uma nova no próximo acesso. As sessões abertas serão encerradas.`}
        confirmLabel="Resetar senha"
        destructive={false}
        pending={reset.isPending}
        onConfirm={() =>
          resetting &&
          reset.mutate(resetting.id, {
            onSuccess: (r) => setPassword({ who: resetting.name, title: 'Senha redefinida', value: r.temporary_password }),
            onSettled: () => setResetting(null),
          })
        }
      />
      <TemporaryPasswordDialog title={password?.title ?? ''} who={password?.who ?? ''} password={password?.value ?? null} onClose={() => setPassword(null)} />
    </AdminPage>
  );
}

function StudentCard({ student, onEdit, onReset }: { student: StudentRow; onEdit: () => void; onReset: () => void }) {
  const toggle = useToggleStudentActive();
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
      <dl className="grid gap-1 text-sm">
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
          <dd className="min-w-0 truncate">{student.address ?? '—'}</dd>
        </div>
      </dl>
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="outline" size="sm" onClick={onEdit} aria-label={`Editar ${student.name}`}>
          <Pencil aria-hidden="true" /> Editar
        </Button>
        <Button variant="outline" size="sm" onClick={onReset} aria-label={`Resetar senha de ${student.name}`}>
          <KeyRound aria-hidden="true" /> Resetar senha
        </Button>
        <div className="ml-auto flex items-center gap-2">
          <Switch id={switchId} checked={student.is_active} disabled={toggle.isPending} onCheckedChange={(active) => toggle.mutate({ id: student.id, active })} />
          <label htmlFor={switchId} className="text-sm">
            <span className="sr-only">{student.name}: </span>Ativo
          </label>
        </div>
      </div>
    </li>
  );
}

/** Name, CPF, phone and address: the same in the add and edit dialogs (the add form has them too). */
function PersonFields({ control, errors, register }: { control: Control<EditStudentValues>; errors: FieldErrors<EditStudentValues>; register: UseFormRegister<EditStudentValues> }) {
  return (
    <>
      <FormField label="Nome Completo" error={errors.name?.message} required>
        <Input autoComplete="off" {...register('name')} />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <Controller
          control={control}
          name="cpf"
          render={({ field }) => (
            <FormField label="CPF" error={errors.cpf?.message}>
              <Input inputMode="numeric" placeholder="000.000.000-00" name={field.name} ref={field.ref} value={field.value} onBlur={field.onBlur} onChange={(e) => field.onChange(maskCpf(e.target.value))} />
            </FormField>
          )}
        />
        <Controller
          control={control}
          name="phone"
          render={({ field }) => (
            <FormField label="Telefone" error={errors.phone?.message}>
              <Input type="tel" inputMode="numeric" placeholder="(00) 00000-0000" name={field.name} ref={field.ref} value={field.value} onBlur={field.onBlur} onChange={(e) => field.onChange(maskPhone(e.target.value))} />
            </FormField>
          )}
        />
      </div>
      <FormField label="Endereço" error={errors.address?.message}>
        <Textarea rows={2} {...register('address')} />
      </FormField>
    </>
  );
}

function StudentDialog({ schoolId, onClose, onCreated }: { schoolId: string; onClose: () => void; onCreated: (name: string, password: string) => void }) {
  const create = useCreateStudent(schoolId);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<StudentValues>({ resolver: zodResolver(studentSchema), defaultValues: { name: '', email: '', cpf: '', phone: '', address: '' } });
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Novo Aluno</DialogTitle>
          <DialogDescription>
            O aluno terá acesso com o e-mail informado. A senha inicial é o CPF (somente os números), se informado; caso contrário, a senha padrão da plataforma. No primeiro acesso ele
            deverá criar uma nova senha.
          </DialogDescription>
        </DialogHeader>
        <form
          noValidate
          aria-label="Novo Aluno"
          className="grid gap-4"
          onSubmit={handleSubmit((v) =>
            create.mutate(v, {
              onSuccess: (r) => {
                onClose();
                onCreated(v.name, r.temporary_password);
              },
            }),
          )}
        >
          <PersonFields control={control as unknown as Control<EditStudentValues>} errors={errors} register={register as unknown as UseFormRegister<EditStudentValues>} />
          <FormField label="Email" error={errors.email?.message} required>
            <Input type="email" autoComplete="off" {...register('email')} />
          </FormField>
          <FormDialogFooter onCancel={onClose} pending={create.isPending} submitLabel="Cadastrar" />
        </form>
      </DialogContent>
    </Dialog>
  );
}

function EditStudentDialog({ student, onClose }: { student: StudentRow; onClose: () => void }) {
  const update = useUpdateStudent();
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<EditStudentValues>({
    resolver: zodResolver(editStudentSchema),
    defaultValues: { name: student.name, cpf: maskCpf(student.cpf ?? ''), phone: maskPhone(student.phone ?? ''), address: student.address ?? '' },
  });
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Editar Aluno</DialogTitle>
          <DialogDescription>{student.email}</DialogDescription>
        </DialogHeader>
        <form noValidate aria-label="Editar Aluno" className="grid gap-4" onSubmit={handleSubmit((values) => update.mutate({ id: student.id, values }, { onSuccess: onClose }))}>
          <PersonFields control={control} errors={errors} register={register} />
          <FormDialogFooter onCancel={onClose} pending={update.isPending} submitLabel="Salvar" />
        </form>
      </DialogContent>
    </Dialog>
  );
}

// The add and edit dialogs of the Students screen: the same person fields (name, CPF, phone,
// address), the add form also asks the e-mail.
import { FormProvider, useForm, useFormContext } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { MaskedField } from '@/components/ui/masked-field';
import { Textarea } from '@/components/ui/textarea';
import { maskCpf, maskPhone } from '@/utils/format';
import { useCreateStudent, useUpdateStudent } from '../api/hooks';
import type { CreatedStudent, StudentRow } from '../api/queries';
import { editStudentSchema, studentSchema, type EditStudentValues, type StudentValues } from '../schemas';

/** Name, CPF, phone and address: the same in the add and edit dialogs (the add form has them too). */
function PersonFields() {
  // Inside either dialog's <FormProvider>: both forms hold these four fields (the add form has email too).
  const {
    control,
    register,
    formState: { errors },
  } = useFormContext<EditStudentValues>();
  return (
    <>
      <FormField label="Nome Completo" error={errors.name?.message} required>
        <Input autoComplete="off" {...register('name')} />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <MaskedField kind="cpf" control={control} name="cpf" error={errors.cpf?.message} />
        <MaskedField kind="phone" control={control} name="phone" error={errors.phone?.message} />
      </div>
      <FormField label="Endereço" error={errors.address?.message}>
        <Textarea rows={2} {...register('address')} />
      </FormField>
    </>
  );
}

/** SPEC §2 "Students": access by the e-mail given; the link first, the initial password as the fallback. */
const NEW_STUDENT_ACCESS =
  'O acesso é pelo e-mail informado: enviamos a ele um link para criar a senha e, se o e-mail não chegar, a senha inicial é o CPF (só os números) ou, sem CPF, a senha padrão da plataforma, trocada no primeiro acesso.';

export function StudentDialog({
  schoolId,
  onClose,
  onCreated,
}: {
  schoolId: string;
  onClose: () => void;
  onCreated: (name: string, student: CreatedStudent) => void;
}) {
  const create = useCreateStudent(schoolId);
  const form = useForm<StudentValues>({
    resolver: zodResolver(studentSchema),
    defaultValues: { name: '', email: '', cpf: '', phone: '', address: '' },
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = form;
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Novo Aluno</DialogTitle>
          <DialogDescription>{NEW_STUDENT_ACCESS}</DialogDescription>
        </DialogHeader>
        <FormProvider {...form}>
          <form
            noValidate
            aria-label="Novo Aluno"
            className="grid gap-4"
            onSubmit={handleSubmit((v) =>
              create.mutate(v, {
                onSuccess: (r) => {
                  onClose();
                  onCreated(v.name, r);
                },
              }),
            )}
          >
            <PersonFields />
            <FormField label="Email" error={errors.email?.message} required>
              <Input type="email" autoComplete="off" {...register('email')} />
            </FormField>
            <FormDialogFooter onCancel={onClose} pending={create.isPending} submitLabel="Cadastrar" />
          </form>
        </FormProvider>
      </DialogContent>
    </Dialog>
  );
}

export function EditStudentDialog({ student, onClose }: { student: StudentRow; onClose: () => void }) {
  const update = useUpdateStudent();
  const form = useForm<EditStudentValues>({
    resolver: zodResolver(editStudentSchema),
    defaultValues: {
      name: student.name,
      cpf: maskCpf(student.cpf ?? ''),
      phone: maskPhone(student.phone ?? ''),
      address: student.address ?? '',
    },
  });
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Editar Aluno</DialogTitle>
          <DialogDescription>{student.email}</DialogDescription>
        </DialogHeader>
        <FormProvider {...form}>
          <form
            noValidate
            aria-label="Editar Aluno"
            className="grid gap-4"
            onSubmit={form.handleSubmit((values) => update.mutate({ id: student.id, values }, { onSuccess: onClose }))}
          >
            <PersonFields />
            <FormDialogFooter onCancel={onClose} pending={update.isPending} submitLabel="Salvar" />
          </form>
        </FormProvider>
      </DialogContent>
    </Dialog>
  );
}

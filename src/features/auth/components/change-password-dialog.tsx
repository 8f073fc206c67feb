import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { KeyRound, Loader2 } from 'lucide-react';
import { toast } from '@/platform/toast';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { useChangePassword } from '../api/change-password';
import { changePasswordSchema, PASSWORD_MISMATCH, PASSWORD_TOO_SHORT, type ChangePasswordValues } from '../schemas';

const TEXT = {
  forced: { title: 'Alterar Senha', description: 'Por segurança, defina uma nova senha para continuar.', submit: 'Alterar Senha', pending: 'Alterando...' },
  recovery: { title: 'Redefinir senha', description: 'Escolha uma nova senha para entrar na sua conta.', submit: 'Salvar nova senha', pending: 'Salvando...' },
};

/**
 * The forced password change, or the new password after a recovery link (`recovery`): cannot be
 * dismissed (no close button, Escape or outside click).
 */
export function ChangePasswordDialog({ open, recovery = false }: { open: boolean; recovery?: boolean }) {
  const text = TEXT[recovery ? 'recovery' : 'forced'];
  const change = useChangePassword();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ChangePasswordValues>({ resolver: zodResolver(changePasswordSchema), defaultValues: { password: '', confirm: '' } });

  // SPEC §5's validation toasts: a refused form, not a failed request (the fields show the messages too).
  const onInvalid = (errs: typeof errors) => {
    const rule = errs.password ? PASSWORD_TOO_SHORT : errs.confirm ? PASSWORD_MISMATCH : null;
    if (rule) toast.error(rule.title, { description: rule.message });
  };

  return (
    <Dialog open={open}>
      <DialogContent
        hideClose
        onEscapeKeyDown={(e) => e.preventDefault()}
        onPointerDownOutside={(e) => e.preventDefault()}
        onInteractOutside={(e) => e.preventDefault()}
        className="max-w-md"
      >
        <DialogHeader>
          <span className="mb-1 flex size-10 items-center justify-center rounded-full bg-primary/10 text-primary" aria-hidden="true">
            <KeyRound className="size-5" />
          </span>
          <DialogTitle>{text.title}</DialogTitle>
          <DialogDescription>{text.description}</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={handleSubmit((v) => change.mutate(v), onInvalid)} className="grid gap-4">
          <FormField label="Nova Senha" error={errors.password?.message}>
            <Input type="password" autoComplete="new-password" autoFocus {...register('password')} />
          </FormField>
          <FormField label="Confirmar Senha" error={errors.confirm?.message}>
            <Input type="password" autoComplete="new-password" {...register('confirm')} />
          </FormField>
          <Button type="submit" className="w-full" disabled={change.isPending}>
            {change.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
            {change.isPending ? text.pending : text.submit}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}

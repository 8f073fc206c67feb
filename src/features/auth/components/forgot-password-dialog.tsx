import { useForm } from 'react-hook-form';
import { Loader2, MailCheck } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { recoveryErrorMessage, useRequestPasswordRecovery } from '../api/password-recovery';
import { emailRules } from '../rules';

export interface ForgotPasswordDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  schoolSlug?: string;
  /** What the login form's Email field held, to save typing it again. */
  defaultEmail?: string;
}

/** 'Esqueci minha senha': the address, then the same answer whether or not an account has it. */
export function ForgotPasswordDialog({ open, onOpenChange, schoolSlug, defaultEmail = '' }: ForgotPasswordDialogProps) {
  const request = useRequestPasswordRecovery(schoolSlug);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ email: string }>({ defaultValues: { email: defaultEmail.trim() } });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Esqueci minha senha</DialogTitle>
          <DialogDescription>
            Informe o email da sua conta e enviaremos um link para você criar uma nova senha.
          </DialogDescription>
        </DialogHeader>
        {request.isSuccess ? (
          <div className="grid gap-4">
            {/* Focused when it appears, so a screen reader reads the answer. */}
            <div
              ref={(el) => el?.focus()}
              tabIndex={-1}
              role="status"
              className="flex gap-3 rounded-lg bg-muted p-4 outline-none"
            >
              <MailCheck className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
              <div className="grid gap-1 text-sm">
                <p className="font-semibold">Enviamos um link para o seu e-mail</p>
                <p className="text-muted-foreground">
                  Abra o link para criar uma nova senha. Ele vale por 1 hora. Não chegou? Confira a caixa de spam.
                </p>
              </div>
            </div>
            <Button type="button" variant="outline" className="w-full" onClick={() => onOpenChange(false)}>
              Voltar ao login
            </Button>
          </div>
        ) : (
          <form
            noValidate
            aria-label="Esqueci minha senha"
            onSubmit={handleSubmit((v) => request.mutate(v.email.trim()))}
            className="grid gap-4"
          >
            <FormField label="Email" error={errors.email?.message}>
              <Input
                type="email"
                autoComplete="email"
                inputMode="email"
                placeholder="seu@email.com"
                autoFocus
                {...register('email', emailRules)}
              />
            </FormField>
            {request.isError && (
              <p role="alert" className="text-sm font-medium text-destructive">
                {recoveryErrorMessage(request.error)}
              </p>
            )}
            <Button type="submit" className="w-full" disabled={request.isPending}>
              {request.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
              {request.isPending ? 'Enviando...' : 'Enviar link'}
            </Button>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}

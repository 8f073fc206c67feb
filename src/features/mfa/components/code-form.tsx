import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { cn } from '@/utils/cn';
import { codeSchema, type CodeInput, type CodeValues } from '../schemas';

export interface CodeFormProps {
  /** The submit button's text ("Confirmar", "Verificar", "Desativar"). */
  submitLabel: string;
  pendingLabel: string;
  pending?: boolean;
  /** Resolves when the code was accepted; rejects (the field is cleared for the next code) when not. */
  onSubmit: (code: string) => Promise<unknown>;
  /** The form's accessible name. */
  label: string;
  destructive?: boolean;
  className?: string;
}

/** "Código de 6 dígitos" of the authenticator app, with the browser's one-time-code autofill. */
export function CodeForm({ submitLabel, pendingLabel, pending, onSubmit, label, destructive, className }: CodeFormProps) {
  const {
    register,
    handleSubmit,
    setValue,
    setFocus,
    formState: { errors },
  } = useForm<CodeInput, unknown, CodeValues>({ resolver: zodResolver(codeSchema), defaultValues: { code: '' } });
  const submit = handleSubmit(async ({ code }) => {
    try {
      await onSubmit(code);
    } catch {
      // The mutation's toast says why; the same code would fail again.
      setValue('code', '');
      setFocus('code');
    }
  });
  return (
    <form noValidate onSubmit={submit} aria-label={label} className={cn('grid gap-4', className)}>
      <FormField label="Código de 6 dígitos" error={errors.code?.message}>
        <Input
          {...register('code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          placeholder="000000"
          className="text-center font-mono text-lg tracking-[0.4em]"
        />
      </FormField>
      <Button type="submit" variant={destructive ? 'destructive' : 'default'} disabled={pending} className="w-full">
        {pending && <Loader2 className="animate-spin" aria-hidden="true" />}
        {pending ? pendingLabel : submitLabel}
      </Button>
    </form>
  );
}

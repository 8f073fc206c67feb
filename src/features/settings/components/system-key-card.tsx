import { useId, useState } from 'react';
import { Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { formatDate } from '@/lib/format';
import { useSaveSystemKey, useSystemKey } from '../api/hooks';

/** The platform's own Asaas key (system_config ASAAS_API_KEY), for the master user only. */
export function SystemKeyCard() {
  const id = useId();
  const current = useSystemKey(true);
  const save = useSaveSystemKey();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <section className="grid gap-4 rounded-xl border border-border bg-white p-4 sm:p-6" aria-labelledby={`${id}-title`}>
      <div>
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          Chave do sistema
        </h2>
        <p className="text-sm text-muted-foreground">
          {current.data ? (
            <>
              Chave atual <span className="font-mono">••••{current.data.value_last4}</span>, atualizada em {formatDate(current.data.updated_at)}.
            </>
          ) : (
            'Nenhuma chave cadastrada.'
          )}
        </p>
      </div>
      <form
        noValidate
        aria-label="Chave do sistema"
        className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          if (!value.trim()) return setError('A chave não pode estar vazia');
          setError(null);
          save.mutate(value, { onSuccess: () => setValue('') });
        }}
      >
        <div className="grid gap-2">
          <Label htmlFor={`${id}-value`}>Nova chave API (Asaas)</Label>
          <Input id={`${id}-value`} type="password" autoComplete="off" value={value} onChange={(e) => setValue(e.target.value)} aria-invalid={error ? true : undefined} />
        </div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          Salvar chave
        </Button>
        {error && (
          <p role="alert" className="text-sm font-medium text-destructive sm:col-span-2">
            {error}
          </p>
        )}
      </form>
    </section>
  );
}

// An on/off setting (docs/conventions.md, "Settings"): it is saved the moment it is flipped, says
// "Salvando..." and then "Salvo" beside its label, and on a failure flips back to what the server
// keeps and says "Não foi salvo" (the one error toast of src/platform/query-client.ts says why, in pt-BR).
// No "Salvar" button: a switch that waits for one looks saved when it is not.
import { useId, useState, type ReactNode } from 'react';
import { Check, Loader2 } from 'lucide-react';
import { cn } from '@/utils/cn';
import { Label } from './label';
import { Switch } from './switch';

type Status = 'idle' | 'saving' | 'saved' | 'failed';

export interface SettingSwitchProps {
  /** Names the switch (its <Label htmlFor>). */
  label: ReactNode;
  /** What the setting does, read with the switch (aria-describedby). */
  description?: ReactNode;
  /** What the server keeps. */
  checked: boolean;
  /** Saves the new value; resolves once the server kept it (and the cache holds it), rejects otherwise. */
  onSave: (checked: boolean) => Promise<unknown>;
  disabled?: boolean;
  id?: string;
  className?: string;
}

export function SettingSwitch({ label, description, checked, onSave, disabled, id, className }: SettingSwitchProps) {
  const autoId = useId();
  const switchId = id ?? `setting-${autoId}`;
  const [status, setStatus] = useState<Status>('idle');
  // The value just chosen, shown until the server's answer reaches `checked` (or the save fails).
  const [chosen, setChosen] = useState<boolean | null>(null);
  const [serverValue, setServerValue] = useState(checked);
  if (serverValue !== checked) {
    setServerValue(checked);
    if (status !== 'saving') setChosen(null);
  }
  const shown = chosen ?? checked;

  async function change(next: boolean) {
    // One save at a time: a flip while one is on its way is ignored (the switch stays focusable).
    if (status === 'saving') return;
    setChosen(next);
    setStatus('saving');
    try {
      await onSave(next);
      setStatus('saved');
    } catch {
      setChosen(null);
      setStatus('failed');
    }
  }

  return (
    <div className={cn('flex items-start gap-3', className)}>
      <Switch
        id={switchId}
        checked={shown}
        disabled={disabled}
        aria-busy={status === 'saving' || undefined}
        aria-describedby={description ? `${switchId}-description` : undefined}
        onCheckedChange={(next) => void change(next)}
      />
      <div className="grid min-w-0 gap-1">
        {/* As tall as the switch, so the label sits level with it. */}
        <div className="flex min-h-6 flex-wrap items-center gap-x-2 gap-y-0.5">
          <Label htmlFor={switchId}>{label}</Label>
          <span role="status" className={cn('inline-flex items-center gap-1 text-xs', status === 'failed' ? 'font-medium text-destructive' : 'text-muted-foreground')}>
            {status === 'saving' && (
              <>
                <Loader2 className="size-3 animate-spin" aria-hidden="true" /> Salvando...
              </>
            )}
            {status === 'saved' && (
              <>
                <Check className="size-3 text-success" aria-hidden="true" /> Salvo
              </>
            )}
            {status === 'failed' && 'Não foi salvo'}
          </span>
        </div>
        {description && (
          <p id={`${switchId}-description`} className="text-xs text-muted-foreground">
            {description}
          </p>
        )}
      </div>
    </div>
  );
}

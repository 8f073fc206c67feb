// The dashboard's period picker (issue 25): 7 / 30 / 90 days or 12 months. Native radio buttons in a
// fieldset named "Período" (the arrow keys move the choice, a screen reader says "1 de 4"), drawn as
// a segmented control (each radio, transparent, covers its label: a click or a tap lands on it); no
// script of its own in the dashboard's download.
import { useId, useState } from 'react';
import { cn } from '@/utils/cn';
import { CHART_PERIODS, type ChartPeriod } from '../api/queries';
import { PERIOD_LABELS } from '../hooks/use-period';

export function PeriodPicker({ value, onChange }: { value: ChartPeriod; onChange: (period: ChartPeriod) => void }) {
  const name = useId();
  // The choice shows at once, before the URL (and so `value`) catches up with it.
  const [selected, setSelected] = useState(value);
  const [prop, setProp] = useState(value);
  if (prop !== value) {
    setProp(value);
    setSelected(value);
  }
  return (
    <fieldset className="flex flex-wrap items-center gap-2">
      <legend className="sr-only">Período</legend>
      <span aria-hidden="true" className="text-sm font-medium">
        Período
      </span>
      <div className="inline-flex h-10 items-center rounded-lg bg-muted p-1 text-muted-foreground">
        {CHART_PERIODS.map((p) => (
          <label
            key={p}
            className={cn(
              'relative inline-flex h-8 cursor-pointer items-center rounded-md px-2.5 text-sm font-medium whitespace-nowrap transition-colors hover:text-foreground has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-primary',
              p === selected && 'bg-white text-foreground shadow-sm',
            )}
          >
            <input
              type="radio"
              name={name}
              value={p}
              checked={p === selected}
              onChange={() => {
                setSelected(p);
                onChange(p);
              }}
              className="absolute inset-0 cursor-pointer opacity-0"
            />
            {PERIOD_LABELS[p]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

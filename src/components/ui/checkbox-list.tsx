// A fieldset of checkboxes for an array field (react-hook-form's Controller gives value and onChange):
// the courses of a coupon or a plan, a plan's payment methods. Each box has its own label; the error
// goes under the list.
import { Label } from './label';

export interface CheckboxOption {
  value: string;
  label: string;
}

export function CheckboxList({
  id,
  legend,
  required = false,
  options,
  value,
  onChange,
  error,
  empty,
  listClassName = 'grid max-h-56 gap-1 overflow-y-auto rounded-lg border border-border p-2',
}: {
  id: string;
  legend: string;
  required?: boolean;
  options: CheckboxOption[];
  value: string[];
  onChange: (value: string[]) => void;
  error?: string;
  /** Shown instead of the list when there are no options. */
  empty?: string;
  listClassName?: string;
}) {
  return (
    <fieldset className="grid gap-2" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="mb-1 text-sm font-medium">
        {legend}
        {required && (
          <span aria-hidden="true" className="ml-0.5 text-destructive">
            *
          </span>
        )}
      </legend>
      {options.length === 0 && empty ? (
        <p className="text-sm text-muted-foreground">{empty}</p>
      ) : (
        <ul className={listClassName}>
          {options.map((o) => (
            <li key={o.value} className="flex items-center gap-2 rounded-md px-2 py-1.5 hover:bg-muted">
              <input
                id={`${id}-${o.value}`}
                type="checkbox"
                className="size-4 cursor-pointer accent-primary"
                checked={value.includes(o.value)}
                onChange={(e) => onChange(e.target.checked ? [...value, o.value] : value.filter((v) => v !== o.value))}
              />
              <Label htmlFor={`${id}-${o.value}`} className="min-w-0 flex-1 cursor-pointer font-normal break-words">
                {o.label}
              </Label>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  );
}

// The fields of a react-hook-form form that need a Controller, bound to it by name: a radio group with its
// label, a list of checkboxes (an array field), a switch (a boolean) and a text rewritten as it is typed.
// The coupon and plan dialogs wrote each out with its own Controller.
import type { ComponentProps, ReactNode } from 'react';
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { CheckboxList } from './checkbox-list';
import { FormField } from './form-field';
import { Input } from './input';
import { Label } from './label';
import { RadioGroup, RadioGroupItem } from './radio-group';
import { SwitchField } from './switch-field';

interface Bound<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  /** The form's useId(): each field's ids are built on it. */
  id: string;
}

/** One choice among a few, two a row from 640 px: `options` are [value, label]. */
export function RadioChoiceField<T extends FieldValues>({
  control,
  name,
  id,
  label,
  options,
}: Bound<T> & { label: string; options: readonly (readonly [string, string])[] }) {
  const labelId = `${id}-${name}`;
  return (
    <div className="grid gap-2">
      <span id={labelId} className="text-sm font-medium">
        {label}
      </span>
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <RadioGroup
            value={field.value}
            onValueChange={field.onChange}
            aria-labelledby={labelId}
            className="sm:grid-cols-2"
          >
            {options.map(([value, text]) => (
              <div key={value} className="flex items-center gap-2 rounded-lg border border-border px-3 py-2">
                <RadioGroupItem value={value} id={`${labelId}-${value}`} />
                <Label htmlFor={`${labelId}-${value}`}>{text}</Label>
              </div>
            ))}
          </RadioGroup>
        )}
      />
    </div>
  );
}

/** Several choices of an array field (the courses of a coupon or a plan, a plan's payment methods). */
export function CheckboxListField<T extends FieldValues>({
  control,
  name,
  id,
  ...list
}: Bound<T> & Omit<ComponentProps<typeof CheckboxList>, 'id' | 'value' | 'onChange'>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <CheckboxList id={`${id}-${name}`} value={field.value} onChange={field.onChange} {...list} />
      )}
    />
  );
}

/** An on/off field saved with the form (a dialog's "Ativo"), not a setting saved at once (SettingSwitch). */
export function SwitchChoiceField<T extends FieldValues>({ control, name, id, label }: Bound<T> & { label: string }) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <SwitchField
          id={`${id}-${name}`}
          ref={field.ref}
          checked={field.value}
          onCheckedChange={field.onChange}
          label={label}
        />
      )}
    />
  );
}

/**
 * A text whose value is rewritten as it is typed (a coupon code in capitals, a web address in lower
 * case): `normalize` gets what was typed, `onType` hears each keystroke, `hint` may show the value.
 */
export function NormalizedTextField<T extends FieldValues>({
  control,
  name,
  label,
  error,
  hint,
  normalize,
  onType,
  ...input
}: Omit<Bound<T>, 'id'> & {
  label: string;
  error?: string;
  hint: (value: string) => ReactNode;
  normalize: (typed: string) => string;
  onType?: () => void;
} & Pick<ComponentProps<typeof Input>, 'autoCapitalize' | 'placeholder'>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <FormField label={label} error={error} hint={hint(field.value)} required>
          <Input
            name={field.name}
            ref={field.ref}
            value={field.value}
            onBlur={field.onBlur}
            onChange={(e) => {
              onType?.();
              field.onChange(normalize(e.target.value));
            }}
            autoComplete="off"
            spellCheck={false}
            {...input}
          />
        </FormField>
      )}
    />
  );
}

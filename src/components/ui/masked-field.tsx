// A CPF or phone field of a react-hook-form form, formatted as the person types (the Brazilian masks
// of src/utils/format.ts). One field for the profile and the Students dialogs, which wrote it twice.
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { maskCpf, maskPhone } from '@/utils/format';

const KINDS = {
  cpf: { label: 'CPF', type: undefined, placeholder: '000.000.000-00', mask: maskCpf },
  phone: { label: 'Telefone', type: 'tel', placeholder: '(00) 00000-0000', mask: maskPhone },
} as const;

export function MaskedField<T extends FieldValues>({
  kind,
  control,
  name,
  error,
  autoComplete,
}: {
  kind: keyof typeof KINDS;
  control: Control<T>;
  name: FieldPath<T>;
  error?: string;
  autoComplete?: string;
}) {
  const { label, type, placeholder, mask } = KINDS[kind];
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <FormField label={label} error={error}>
          <Input
            type={type}
            inputMode="numeric"
            autoComplete={autoComplete}
            placeholder={placeholder}
            name={field.name}
            ref={field.ref}
            value={field.value}
            onBlur={field.onBlur}
            onChange={(e) => field.onChange(mask(e.target.value))}
          />
        </FormField>
      )}
    />
  );
}

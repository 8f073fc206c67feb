// The form inside a FormDialog (form-dialog.tsx): validate, save, close, and a taken code or address shown
// under its field.
import { useForm, type DefaultValues, type FieldValues, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from '@/platform/zod';
import { showRefusalAt } from '@/platform/errors';

/**
 * The form of a FormDialog, checked by the feature's zod `schema` and starting at `defaultValues`.
 * `save` is the mutation's `mutateAsync` (its own toasts say what happened); the dialog closes once it
 * saved, and a refusal of the unique constraint `taken` names (a code or an address already in use) shows
 * under that field, which gets the focus. `dialog` is what the FormDialog around it takes:
 * `<FormDialog title description {...dialog}>` (saving: it neither closes nor saves again).
 */
export function useFormDialogForm<TInput extends FieldValues, TValues extends FieldValues>(
  schema: z.ZodType<TValues, TInput>,
  defaultValues: DefaultValues<TInput>,
  {
    save,
    onClose,
    taken: [constraint, field],
  }: {
    save: (values: TValues) => Promise<unknown>;
    onClose: () => void;
    taken: [constraint: string, field: Path<TInput>];
  },
) {
  const form = useForm<TInput, unknown, TValues>({ resolver: zodResolver(schema), defaultValues });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save(values);
    } catch (error) {
      showRefusalAt(constraint, (message) => form.setError(field, { message }, { shouldFocus: true }))(error);
      return;
    }
    onClose();
  });
  return { form, dialog: { pending: form.formState.isSubmitting, onClose, onSubmit } };
}

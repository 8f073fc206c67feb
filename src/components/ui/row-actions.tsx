// A list row's "Editar" and "Excluir" buttons, named for the row ("Editar Excel Essencial") so a screen
// reader tells one row's from the next. `iconOnly`: the pencil or bin alone, with a tooltip (a table's
// last column). The admin lists each wrote these out.
import { Pencil, Trash2 } from 'lucide-react';
import { cn } from '@/utils/cn';
import { Button } from './button';

interface RowActionProps {
  /** The row's name, read after the action: "Editar <name>". */
  name: string;
  onClick: () => void;
  iconOnly?: boolean;
}

export function EditRowButton({
  name,
  onClick,
  iconOnly = false,
  variant = 'outline',
}: RowActionProps & { variant?: 'outline' | 'ghost' }) {
  return (
    <Button
      variant={iconOnly ? 'ghost' : variant}
      size={iconOnly ? 'icon' : 'sm'}
      onClick={onClick}
      aria-label={`Editar ${name}`}
      title={iconOnly ? 'Editar' : undefined}
    >
      <Pencil aria-hidden="true" />
      {!iconOnly && 'Editar'}
    </Button>
  );
}

/** `label`: the whole accessible name when "Excluir <name>" would not say what goes ("Excluir matrícula de …"). */
export function DeleteRowButton({
  name,
  onClick,
  iconOnly = false,
  label,
  className,
}: RowActionProps & { label?: string; className?: string }) {
  return (
    <Button
      variant="ghost"
      size={iconOnly ? 'icon' : 'sm'}
      className={cn('text-destructive hover:bg-red-50', className)}
      onClick={onClick}
      aria-label={label ?? `Excluir ${name}`}
      title={iconOnly ? 'Excluir' : undefined}
    >
      <Trash2 aria-hidden="true" />
      {!iconOnly && 'Excluir'}
    </Button>
  );
}

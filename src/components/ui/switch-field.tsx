import { forwardRef, useId, type ComponentPropsWithoutRef, type ElementRef, type ReactNode } from 'react';
import { Label } from './label';
import { Switch } from './switch';

export interface SwitchFieldProps extends Omit<ComponentPropsWithoutRef<typeof Switch>, 'children'> {
  /** Names the switch (its <Label htmlFor>), e.g. "Ativo" in a plan's or a coupon's dialog. */
  label: ReactNode;
}

/** A form's on/off field: the switch with its label beside it (react-hook-form's Controller gives
 * checked, onCheckedChange and ref). */
export const SwitchField = forwardRef<ElementRef<typeof Switch>, SwitchFieldProps>(function SwitchField(
  { label, id, ...props },
  ref,
) {
  const autoId = useId();
  const switchId = id ?? `switch-${autoId}`;
  return (
    <div className="flex items-center gap-3">
      <Switch id={switchId} ref={ref} {...props} />
      <Label htmlFor={switchId}>{label}</Label>
    </div>
  );
});

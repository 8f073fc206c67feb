import * as CollapsiblePrimitive from '@radix-ui/react-collapsible';

/** Radix Collapsible (open/closed region with an accessible trigger). */
export const Collapsible = CollapsiblePrimitive.Root;
export const CollapsibleTrigger = CollapsiblePrimitive.Trigger;
export const CollapsibleContent = CollapsiblePrimitive.Content;

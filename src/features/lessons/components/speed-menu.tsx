// The player's speed menu as Radix draws it (./lesson-video.tsx loads it once the page has settled,
// issue 21): its dropdown machinery stays out of the lesson's first download.
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { cn } from '@/utils/cn';
import type { DeferredTriggerStart } from '@/platform/deferred-module';
import { PLAYBACK_RATES, rateLabel } from '../lib/playback';

export interface SpeedMenuProps extends DeferredTriggerStart {
  rate: number;
  onChange: (rate: number) => void;
  trigger: ReactNode;
  triggerProps: { className: string; 'aria-label': string };
}

export function SpeedMenu({ rate, onChange, trigger, triggerProps, defaultOpen, autoFocus }: SpeedMenuProps) {
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="sm" autoFocus={autoFocus} {...triggerProps}>
          {trigger}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-40">
        <DropdownMenuLabel>Velocidade</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {PLAYBACK_RATES.map((r) => (
          <DropdownMenuItem key={r} onSelect={() => onChange(r)} aria-checked={r === rate} role="menuitemradio" className={cn(r === rate && 'font-semibold text-primary')}>
            {r === 1 ? 'Normal' : rateLabel(r)}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

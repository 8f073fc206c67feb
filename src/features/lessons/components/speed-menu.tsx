// The player's speed menu as Radix draws it (./lesson-video.tsx loads it once the page has settled,
// issue 21): its dropdown machinery stays out of the lesson's first download. A hosted video's menu
// also has "Qualidade" (issue 39): Automática, then its renditions; choosing one pins it.
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
import type { QualityChoice } from './speed-control';

export interface SpeedMenuProps extends DeferredTriggerStart {
  rate: number;
  onChange: (rate: number) => void;
  trigger: ReactNode;
  triggerProps: { className: string; 'aria-label': string };
  quality?: QualityChoice;
}

function Choice({ checked, onSelect, children }: { checked: boolean; onSelect: () => void; children: ReactNode }) {
  return (
    <DropdownMenuItem onSelect={onSelect} aria-checked={checked} role="menuitemradio" className={cn(checked && 'font-semibold text-primary')}>
      {children}
    </DropdownMenuItem>
  );
}

export function SpeedMenu({ rate, onChange, quality, trigger, triggerProps, defaultOpen, autoFocus }: SpeedMenuProps) {
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="sm" autoFocus={autoFocus} {...triggerProps}>
          {trigger}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent
        align="end"
        className="w-40"
        // With "Qualidade" the menu may be taller than a phone's screen: it scrolls instead (inline, so
        // nothing of it enters the first page's stylesheet).
        style={{ maxHeight: 'var(--radix-dropdown-menu-content-available-height)', overflowY: 'auto' }}
      >
        <DropdownMenuLabel>Velocidade</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {PLAYBACK_RATES.map((r) => (
          <Choice key={r} checked={r === rate} onSelect={() => onChange(r)}>
            {r === 1 ? 'Normal' : rateLabel(r)}
          </Choice>
        ))}
        {quality && (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuLabel>Qualidade</DropdownMenuLabel>
            <DropdownMenuSeparator />
            <Choice checked={quality.level === -1} onSelect={() => quality.onChange(-1)}>
              Automática
            </Choice>
            {quality.renditions.map((r) => (
              <Choice key={r.level} checked={r.level === quality.level} onSelect={() => quality.onChange(r.level)}>
                {r.label}
              </Choice>
            ))}
          </>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

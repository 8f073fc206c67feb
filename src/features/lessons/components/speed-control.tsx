// The player's speed control (issue 21), with "Qualidade" for a hosted video (issue 39): a look-alike
// button in the lesson's chunk until the Radix menu (./speed-menu.tsx) has loaded.
import { Gauge } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useDeferredTrigger } from '@/platform/deferred-module';
import { rateLabel } from '../lib/playback';
import type { Rendition } from './hosted-video';

const loadSpeedMenu = () => import('./speed-menu');

/** The hosted video's renditions and the one pinned (AUTO_QUALITY: hls.js chooses). */
export interface QualityChoice {
  renditions: Rendition[];
  level: number;
  onChange: (level: number) => void;
}

/** The speed menu (with "Qualidade" for a hosted video): a look-alike button until its Radix code has
 * loaded (./speed-menu.tsx). */
export function SpeedControl({ rate, onChange, quality }: { rate: number; onChange: (r: number) => void; quality?: QualityChoice }) {
  const menu = useDeferredTrigger(loadSpeedMenu);
  const qualityName = quality && (quality.renditions.find((r) => r.level === quality.level)?.label ?? 'Automática');
  const triggerProps = {
    className: 'text-slate-200 hover:bg-white/10 hover:text-white',
    'aria-label': `Velocidade de reprodução: ${rateLabel(rate)}${qualityName ? ` · Qualidade: ${qualityName}` : ''}`,
  };
  const trigger = (
    <>
      <Gauge aria-hidden="true" />
      {rateLabel(rate)}
    </>
  );
  if (menu.module) return <menu.module.SpeedMenu rate={rate} onChange={onChange} quality={quality} trigger={trigger} triggerProps={triggerProps} {...menu.initial} />;
  return (
    <Button variant="ghost" size="sm" aria-haspopup="menu" {...triggerProps} {...menu.placeholderProps}>
      {trigger}
    </Button>
  );
}

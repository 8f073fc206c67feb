// The viewer's name over every lesson video (issue 39): a semi-transparent line with the name and the
// masked CPF (or the e-mail without a CPF) that moves to a new random place every 15 to 30 seconds, so
// a screen recording carries who recorded it. It takes no clicks (pointer-events: none) and screen
// readers skip it (aria-hidden). A school turns it off in Settings (schools.video_watermark).
// Full screen keeps it: ../hooks/use-player-fullscreen.ts.
import { useEffect, useState } from 'react';
import { Maximize, Minimize } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useSession } from '@/platform/session';
import { nextMoveDelay, randomSpot, watermarkText } from '../lib/watermark';

/** The moving label itself (VideoWatermark decides whether and what it says). */
export function MovingWatermark({ text }: { text: string }) {
  const [spot, setSpot] = useState(randomSpot);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const move = () => {
      setSpot(randomSpot());
      timer = setTimeout(move, nextMoveDelay());
    };
    timer = setTimeout(move, nextMoveDelay());
    return () => clearTimeout(timer);
  }, []);
  return (
    <div
      aria-hidden="true"
      data-testid="video-watermark"
      // Inline styles, not utility classes: they stay in the lesson's chunk instead of the first page's
      // stylesheet. Over any picture: white at 60% with a dark halo; its size follows the frame's width
      // (the frame is a size container), in full screen too.
      style={{
        position: 'absolute',
        zIndex: 10,
        left: `${spot.x}%`,
        top: `${spot.y}%`,
        transform: `translate(-${spot.x}%, -${spot.y}%)`,
        maxWidth: '90%',
        overflow: 'hidden',
        textOverflow: 'ellipsis',
        whiteSpace: 'nowrap',
        pointerEvents: 'none',
        userSelect: 'none',
        color: 'rgb(255 255 255 / 0.6)',
        textShadow: '0 0 3px rgb(0 0 0 / 0.8)',
        fontWeight: 500,
        fontSize: 'clamp(11px, 2.2cqw, 24px)',
      }}
    >
      {text}
    </div>
  );
}

/** The signed-in viewer's watermark (staff previewing a lesson see their own), unless the school turned it off. */
export function VideoWatermark() {
  const { user, profile, school } = useSession();
  if (!user || school?.video_watermark === false) return null;
  const text = watermarkText({ name: profile?.name, cpf: profile?.cpf, email: user.email ?? profile?.email });
  return text ? <MovingWatermark text={text} /> : null;
}

export function FullscreenButton({ active, onClick }: { active: boolean; onClick: () => void }) {
  return (
    <Button variant="ghost" size="sm" className="text-slate-200 hover:bg-white/10 hover:text-white" aria-label={active ? 'Sair da tela cheia' : 'Tela cheia'} onClick={onClick}>
      {active ? <Minimize aria-hidden="true" /> : <Maximize aria-hidden="true" />}
    </Button>
  );
}

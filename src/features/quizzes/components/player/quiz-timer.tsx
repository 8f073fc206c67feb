// The attempt's countdown, on the server's clock: `now` came with the attempt (receivedAt is when it
// arrived here), so a browser clock that is off does not give or take time. At 0 it calls onExpire once.
import { useEffect, useRef, useState } from 'react';
import { Timer } from 'lucide-react';
import { clockText, remainingMs } from '@/concepts/quiz-state';
import { cn } from '@/utils/cn';

export function QuizTimer({ deadline, serverNow, receivedAt, onExpire }: { deadline: string; serverNow: string; receivedAt: number; onExpire: () => void }) {
  const [left, setLeft] = useState(() => remainingMs(deadline, serverNow, receivedAt));
  const expired = useRef(false);
  const expire = useRef(onExpire);
  useEffect(() => {
    expire.current = onExpire;
  });
  useEffect(() => {
    const tick = () => {
      const ms = remainingMs(deadline, serverNow, receivedAt);
      setLeft(ms);
      if (ms <= 0 && !expired.current) {
        expired.current = true;
        expire.current();
      }
    };
    tick();
    const id = window.setInterval(tick, 1000);
    return () => window.clearInterval(id);
  }, [deadline, serverNow, receivedAt]);

  const minute = Math.ceil(left / 60_000);
  const urgent = left <= 60_000;
  return (
    <div
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full px-3 py-1 text-sm font-semibold tabular-nums ring-1',
        urgent ? 'bg-red-500/15 text-red-200 ring-red-400/40' : 'bg-white/10 text-slate-100 ring-white/15',
      )}
      data-testid="quiz-timer"
    >
      <Timer className="size-4" aria-hidden="true" />
      <span role="timer" aria-label={`Tempo restante: ${clockText(left)}`}>
        {clockText(left)}
      </span>
      {/* Said once a minute, not every second. */}
      <span className="sr-only" aria-live="polite">
        {left > 0 && (minute <= 5 || minute % 5 === 0) ? `${minute} ${minute === 1 ? 'minuto restante' : 'minutos restantes'}` : ''}
      </span>
    </div>
  );
}

// The course progress ring slot of the member header. A course page reports its percent with
// useSetHeaderProgress() (header-progress-context.ts), passed to the course screen by its route; the header shows the ring meanwhile.
import { useMemo, useState, type ReactNode } from 'react';
import { HeaderProgressContext } from './header-progress-context';

export function HeaderProgressProvider({ children }: { children: ReactNode }) {
  const [progress, setProgress] = useState<number | null>(null);
  const value = useMemo(() => ({ progress, setProgress }), [progress]);
  return <HeaderProgressContext.Provider value={value}>{children}</HeaderProgressContext.Provider>;
}
